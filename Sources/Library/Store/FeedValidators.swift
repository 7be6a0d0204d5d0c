/// A feed response's HTTP validators (`ETag`, `Last-Modified`), kept so the next refresh can ask
/// "changed since?" and get a cheap 304 instead of the whole feed.
package struct FeedValidators: Sendable, Equatable, Codable {
    package var etag: String?
    package var lastModified: String?

    package init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// No validators (the server sent none).
    package static let none = FeedValidators()
}
