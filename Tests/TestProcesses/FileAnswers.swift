import Foundation

/// Answers that serve a file the way static file servers and podcast hosts do, with or without
/// `Range` support, for the resumable-download tests; each answer can end early on purpose.
extension TestHTTPServer.Response {
    /// How one answer's body ends.
    package enum Ending: Sendable {
        case complete
        /// After this many body bytes, a pause (so they surely reach the client), then the
        /// connection is closed abruptly.
        case cut(after: Int)
        /// After this many body bytes, the connection stays open and silent.
        case stall(after: Int)
    }

    /// `data` as an answer to `request`. With `ranges`, `Range: bytes=N-` gets a 206 with
    /// `Content-Range` (a 416 with `bytes */size` past the end) and other requests a 200 with
    /// `Accept-Ranges: bytes`; without, every request gets a 200 with the whole file.
    /// `contentLength: false` leaves `Content-Length` out (a chunked body).
    package static func file(
        _ data: Data, for request: TestHTTPServer.Request, ranges: Bool = true, etag: String? = nil,
        contentType: String = "audio/mpeg", contentLength: Bool = true, ending: Ending = .complete
    ) -> TestHTTPServer.Response {
        var headers: [(String, String)] = [("Content-Type", contentType)]
        if let etag { headers.append(("ETag", etag)) }
        var start = 0
        var status = 200
        if ranges {
            headers.append(("Accept-Ranges", "bytes"))
            if let asked = requestedStart(request) {
                guard asked < data.count else {
                    return TestHTTPServer.Response(
                        status: 416, headers: headers + [("Content-Range", "bytes */\(data.count)"), ("Content-Length", "0")])
                }
                start = asked
                status = 206
                headers.append(("Content-Range", "bytes \(asked)-\(data.count - 1)/\(data.count)"))
            }
        }
        let body = data.subdata(in: start..<data.count)
        if contentLength { headers.append(("Content-Length", "\(body.count)")) }
        let parts: [TestHTTPServer.Part]
        switch ending {
        case .complete: parts = [.bytes(body)]
        case .cut(let after): parts = [.bytes(body.prefix(after)), .pause(0.3), .cut]
        case .stall(let after): parts = [.bytes(body.prefix(after)), .hold]
        }
        return TestHTTPServer.Response(status: status, headers: headers, body: parts)
    }

    /// N of a `Range: bytes=N-` header; nil without one (or for a form these tests never send).
    package static func requestedStart(_ request: TestHTTPServer.Request) -> Int? {
        guard let value = request.header("Range"), value.hasPrefix("bytes="), value.hasSuffix("-") else { return nil }
        return Int(value.dropFirst("bytes=".count).dropLast())
    }
}
