/// A successful answer: `key: value` lines in order, before the `OK` (or `list_OK`) the server adds,
/// and for `albumart` and `readpicture` a binary part after them (`binary: N`, the bytes, a
/// newline), at most the client's `binarylimit` (`MPDCommand.client.binaryLimit`) long.
public struct MPDResponse: Sendable, Hashable {
    public struct Field: Sendable, Hashable {
        public var key: String
        public var value: String
        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    public var fields: [Field]
    /// The binary part, sent after the fields; nil for an answer without one.
    public var binary: [UInt8]?

    public init(_ fields: [Field] = [], binary: [UInt8]? = nil) {
        self.fields = fields
        self.binary = binary
    }

    public static let empty = MPDResponse()

    public mutating func append(_ key: String, _ value: String) { fields.append(Field(key, value)) }
    public mutating func append(contentsOf other: MPDResponse) {
        fields += other.fields
        if let binary = other.binary { self.binary = binary }
    }
}
