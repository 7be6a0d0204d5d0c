import Foundation

/// The printf templates of the catalogs: which placeholders a text has, and filling them safely.
///
/// Rules: a placeholder is `%@` (a text), an integer conversion (`%d`, `%ld`, `%u`, `%x`…) or a
/// floating one (`%f`, `%g`…), optionally numbered (`%2$@`) and with flags, width and precision;
/// `%%` is a literal percent sign. A text numbers all of its placeholders or none, and uses every
/// argument from the first to its last. Anything else after a `%` (a lone `%`, `%s`, `%*d`) makes
/// the template malformed, and a malformed template is never handed to `String(format:)`.
enum FormatTemplate {
    enum Kind: Sendable, Hashable, CustomStringConvertible {
        case text, integer, floating

        var description: String {
            switch self {
            case .text: "%@"
            case .integer: "%d"
            case .floating: "%f"
            }
        }
    }

    /// The template's placeholders: argument position (from 1) -> kind. Nil when malformed.
    static func placeholders(_ template: String) -> [Int: Kind]? {
        let bytes = Array(template.utf8)
        var found: [Int: Kind] = [:]
        var sequential = 0
        var numbered = false
        var i = 0
        func digits() -> Int? {
            var value: Int?
            while i < bytes.count, let digit = Self.digit(bytes[i]) {
                value = (value ?? 0) * 10 + digit
                guard value! < 1000 else { return nil }
                i += 1
            }
            return value
        }
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "%") else {
                i += 1
                continue
            }
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "%") {
                i += 1
                continue
            }
            // An optional position: digits and `$`.
            let start = i
            var position: Int?
            if let number = digits(), i < bytes.count, bytes[i] == UInt8(ascii: "$") {
                guard number >= 1 else { return nil }
                position = number
                i += 1
            } else {
                i = start
            }
            while i < bytes.count, "-+ #0'".utf8.contains(bytes[i]) { i += 1 }
            _ = digits()
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                i += 1
                _ = digits()
            }
            while i < bytes.count, "hlqLzjt".utf8.contains(bytes[i]) { i += 1 }
            guard i < bytes.count, let kind = Self.kind(bytes[i]) else { return nil }
            i += 1
            let index: Int
            if let position {
                guard sequential == 0 else { return nil }
                numbered = true
                index = position
            } else {
                guard !numbered else { return nil }
                sequential += 1
                index = sequential
            }
            if let existing = found[index], existing != kind { return nil }
            found[index] = kind
        }
        guard found.keys.sorted() == Array(1..<(found.count + 1)) else { return nil }
        return found
    }

    /// The template with its placeholders filled, or nil when it is malformed or an argument is
    /// missing or of the wrong kind (which `String(format:)` would print wrongly or crash on).
    static func fill(_ template: String, with arguments: [any CVarArg]) -> String? {
        guard let placeholders = placeholders(template) else { return nil }
        if placeholders.isEmpty {
            return template.contains("%") ? template.replacingOccurrences(of: "%%", with: "%") : template
        }
        for (position, kind) in placeholders {
            guard position <= arguments.count, fits(arguments[position - 1], kind) else { return nil }
        }
        return String(format: template, arguments: arguments)
    }

    private static func fits(_ argument: any CVarArg, _ kind: Kind) -> Bool {
        switch kind {
        case .text: argument is String || argument is NSString
        case .integer: argument is any BinaryInteger
        case .floating: argument is any BinaryFloatingPoint
        }
    }

    private static func digit(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static func kind(_ byte: UInt8) -> Kind? {
        switch byte {
        case UInt8(ascii: "@"): .text
        case _ where "diouxXDOU".utf8.contains(byte): .integer
        case _ where "eEfFgGaA".utf8.contains(byte): .floating
        default: nil
        }
    }
}
