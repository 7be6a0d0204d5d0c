import Foundation

/// The timing line of a WebVTT or SRT cue: `00:01:02.500 --> 00:01:04.000 align:start` (WebVTT,
/// hours optional) or `00:01:02,500 --> 00:01:04,000` (SRT, a comma before the milliseconds).
/// Both separators are read in both formats: files labelled one are often written in the other.
enum CueTiming {
    /// The start and end of a timing line; nil when the line is no timing line.
    static func parse(_ line: Substring) -> (start: Double, end: Double)? {
        guard let arrow = line.range(of: "-->") else { return nil }
        let left = line[..<arrow.lowerBound].trimmingCharacters(in: .whitespaces)
        // After the end time come WebVTT's cue settings (or SRT's coordinates): the first word only.
        let right = line[arrow.upperBound...].split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) ?? ""
        guard let start = seconds(left[...]), let end = seconds(right[...]) else { return nil }
        return (start, end)
    }

    /// `[hh:]mm:ss[.,]fff` in seconds; the fraction may have 1 to 3 digits (or be missing), hours
    /// any number of digits. Nil for anything else (so no "inf" or "1e9" gets through).
    static func seconds(_ text: Substring) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { return nil }
        var fieldsAndFraction = parts.map { $0 }
        let last = fieldsAndFraction.removeLast()
        let secondAndFraction = last.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "." || $0 == "," })
        guard secondAndFraction.count == 1 || secondAndFraction.count == 2 else { return nil }
        guard let second = number(secondAndFraction[0], maxDigits: 2), second < 60 else { return nil }
        var fraction = 0.0
        if secondAndFraction.count == 2 {
            let digits = secondAndFraction[1]
            guard !digits.isEmpty, digits.count <= 3, let value = number(digits, maxDigits: 3) else { return nil }
            fraction = Double(value) / pow(10, Double(digits.count))
        }
        guard let minute = number(fieldsAndFraction.removeLast(), maxDigits: 2), minute < 60 else { return nil }
        var hour = 0
        if let hours = fieldsAndFraction.last {
            guard let value = number(hours, maxDigits: 6) else { return nil }
            hour = value
        }
        return Double(hour * 3600 + minute * 60 + second) + fraction
    }

    private static func number(_ digits: Substring, maxDigits: Int) -> Int? {
        guard !digits.isEmpty, digits.count <= maxDigits, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }
}
