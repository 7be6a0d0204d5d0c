import Foundation

/// A number as a listener writes a level or a speed on the command line or stdin: plain (`0.5`),
/// with a suffix that scales it (`50%`, `1.5x`), and with a leading `+` or `-` a change rather than
/// a value. Digits and one dot only: no exponents, no infinities.
enum ListenerNumber {
    /// The value (negative for a `-` change) and whether it is a change; nil for anything else.
    static func parse(_ text: String, suffixes: [Character: Double]) -> (value: Double, isChange: Bool)? {
        var body = Substring(text.trimmingCharacters(in: .whitespaces).lowercased())
        var sign: Double?
        if let first = body.first, first == "+" || first == "-" {
            sign = first == "-" ? -1 : 1
            body = body.dropFirst()
        }
        var scale = 1.0
        if let last = body.last, let factor = suffixes[last] {
            scale = factor
            body = body.dropLast()
        }
        let digits = body.trimmingCharacters(in: .whitespaces)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let value = Double(digits), value.isFinite else {
            return nil
        }
        return (value * scale * (sign ?? 1), sign != nil)
    }
}
