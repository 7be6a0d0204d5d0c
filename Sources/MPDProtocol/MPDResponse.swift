/// A successful answer: `key: value` lines in order, before the `OK` (or `list_OK`) the server adds.
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

    public init(_ fields: [Field] = []) { self.fields = fields }

    public static let empty = MPDResponse()

    public mutating func append(_ key: String, _ value: String) { fields.append(Field(key, value)) }
    public mutating func append(contentsOf other: MPDResponse) { fields += other.fields }
}
