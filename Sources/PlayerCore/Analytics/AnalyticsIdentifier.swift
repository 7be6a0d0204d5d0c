import Foundation

/// A short, machine-chosen name for an operation or a user action in error analytics, such as
/// `playStation` or `retry_button`.
///
/// Why a type and not a `String`: analytics must never hold personal data, and the easiest way
/// to leak some is a caller passing a track title, a URL or a file path where a name was meant.
/// Only `[A-Za-z0-9_.-]`, 1...64 characters, starting with a letter, is accepted; anything else
/// becomes the literal `other`. That grammar cannot express a URL (`:` and `/`), a path (`/`),
/// a sentence (spaces) or non-ASCII text, and keeps the set of values small (low cardinality),
/// so grouping by it in a summary stays meaningful. Validation also runs when decoding, so a
/// tampered database or export file cannot smuggle free text back in.
public struct AnalyticsIdentifier: RawRepresentable, Sendable, Hashable, Comparable, Codable,
    CustomStringConvertible, ExpressibleByStringLiteral
{
    /// The value every rejected candidate collapses to.
    public static let other = AnalyticsIdentifier(validated: "other")

    /// The longest identifier kept, in characters (all ASCII, so also in bytes).
    public static let maxLength = 64

    public let rawValue: String

    /// Keeps `candidate` when it is a valid identifier, otherwise becomes `other`. Never fails:
    /// recording an error must not fail because its label was wrong.
    public init(_ candidate: String) {
        self.rawValue = Self.isValid(candidate) ? candidate : Self.other.rawValue
    }

    /// Same as `init(_:)` (non-failable on purpose: invalid input becomes `other`).
    public init(rawValue: String) {
        self.init(rawValue)
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    private init(validated: String) {
        self.rawValue = validated
    }

    /// True when `candidate` would be kept as is.
    public static func isValid(_ candidate: String) -> Bool {
        let bytes = candidate.utf8
        guard (1...maxLength).contains(bytes.count), let first = bytes.first, isASCIILetter(first) else {
            return false
        }
        return bytes.allSatisfy { byte in
            isASCIILetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
        }
    }

    /// True when this is the fallback `other` (whether given or produced by a rejection).
    public var isOther: Bool { rawValue == Self.other.rawValue }

    public var description: String { rawValue }

    public static func < (lhs: AnalyticsIdentifier, rhs: AnalyticsIdentifier) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(try container.decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }
}
