/// A feed response's HTTP validators (`ETag`, `Last-Modified`), kept so the next refresh can ask
/// "changed since?" and get a cheap 304 instead of the whole feed.
public struct FeedValidators: Sendable, Equatable, Codable {
    public var etag: String?
    public var lastModified: String?

    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// No validators (the server sent none).
    public static let none = FeedValidators()
}
