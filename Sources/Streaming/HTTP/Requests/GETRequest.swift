import AsyncHTTPClient
import Foundation
import NIOHTTP1

/// Every GET Tonearm sends, built in one place from a URL and what the caller asks for: the same
/// `User-Agent` everywhere, `Accept`, `Icy-MetaData: 1` for radio (titles interleaved with the
/// audio), `Range` from a byte with its `If-Range` validator (to continue a file only if it is
/// still the same one), a caller's own headers (a feed's cache validators), and cache busting.
/// Each client takes it in its own form: AsyncHTTPClient's async API (`clientRequest`), its
/// delegate API (`delegateRequest`), or the head the legacy ICY channel writes (`legacyHead`).
struct GETRequest: Sendable {
    /// The part of a file asked for: from `from` to its end, only if it is still the file
    /// `ifRange` (an ETag or a date) names.
    struct ByteRange: Sendable, Equatable {
        var from: Int64
        var ifRange: String?

        init(from: Int64, ifRange: String? = nil) {
            self.from = from
            self.ifRange = ifRange
        }
    }

    var url: URL
    var accept: String
    var asksForIcyMetadata: Bool
    var range: ByteRange?
    /// Further headers, sent in the order of their names.
    var headers: [String: String]
    /// Appends `nocache=<milliseconds since 1970>` of this instant, so no cache in between answers.
    var cacheBustedAt: Date?

    init(
        _ url: URL, accept: String = "*/*", asksForIcyMetadata: Bool = false, range: ByteRange? = nil,
        headers: [String: String] = [:], cacheBustedAt: Date? = nil
    ) {
        self.url = url
        self.accept = accept
        self.asksForIcyMetadata = asksForIcyMetadata
        self.range = range
        self.headers = headers
        self.cacheBustedAt = cacheBustedAt
    }

    /// The address asked for: `url`, cache-busted when asked.
    var target: URL { cacheBustedAt.map { Self.cacheBusted(url, at: $0) } ?? url }

    var headerFields: HTTPHeaders {
        var fields = HTTPHeaders()
        fields.add(name: "User-Agent", value: SharedHTTPClient.userAgent)
        fields.add(name: "Accept", value: accept)
        if asksForIcyMetadata { fields.add(name: "Icy-MetaData", value: "1") }
        if let range {
            fields.add(name: "Range", value: "bytes=\(range.from)-")
            if let ifRange = range.ifRange { fields.add(name: "If-Range", value: ifRange) }
        }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { fields.add(name: name, value: value) }
        return fields
    }

    /// For AsyncHTTPClient's async API.
    func clientRequest() -> HTTPClientRequest {
        var request = HTTPClientRequest(url: target.absoluteString)
        request.method = .GET
        request.headers = headerFields
        return request
    }

    /// For AsyncHTTPClient's delegate API; throws for an address it cannot send to.
    func delegateRequest() throws -> HTTPClient.Request {
        try HTTPClient.Request(url: target.absoluteString, method: .GET, headers: headerFields)
    }

    /// The head a raw HTTP/1.0 channel writes (a SHOUTcast v1 server): `Host` first, then the
    /// same headers; nil without a host.
    func legacyHead() -> HTTPRequestHead? {
        let address = target
        guard let host = address.host else { return nil }
        var head = HTTPRequestHead(version: .http1_0, method: .GET, uri: Self.requestTarget(of: address))
        head.headers.add(name: "Host", value: address.port.map { "\(host):\($0)" } ?? host)
        head.headers.add(contentsOf: headerFields)
        return head
    }

    /// The request target: path (at least "/") and query, as the URL has them.
    static func requestTarget(of url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let path = components?.percentEncodedPath ?? ""
        let query = components?.percentEncodedQuery.map { "?" + $0 } ?? ""
        return (path.isEmpty ? "/" : path) + query
    }

    /// `url` with `nocache=<milliseconds since 1970>` appended (an existing `nocache` is replaced).
    static func cacheBusted(_ url: URL, at date: Date) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        var items = (components.queryItems ?? []).filter { $0.name != "nocache" }
        items.append(URLQueryItem(name: "nocache", value: String(Int64((date.timeIntervalSince1970 * 1000).rounded()))))
        components.queryItems = items
        return components.url ?? url
    }
}
