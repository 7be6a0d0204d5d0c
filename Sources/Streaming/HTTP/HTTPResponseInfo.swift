import Foundation
import PlayerCore

/// What a response head says about a resumable body: enough to continue a download at a byte
/// offset and to notice that the file changed in between. Pure values, parsed where they enter.
package struct HTTPResponseInfo: Sendable, Hashable {
    /// The final status (after redirects): 200, 206, or 416 for a range past the end.
    package var status: Int
    /// `Content-Length`: the bytes of this body (for a 206, of the range only).
    package var contentLength: Int64?
    /// `Content-Range` of a 206 (`bytes start-end/total`) or a 416 (`bytes */total`).
    package var contentRange: ContentRange?
    /// `Accept-Ranges: bytes`, or a 206 (which proves it whatever the headers say).
    package var acceptsRanges: Bool
    /// The validator of this version of the file, sanitised (a server's string).
    package var etag: String?

    package init(
        status: Int, contentLength: Int64? = nil, contentRange: ContentRange? = nil, acceptsRanges: Bool = false,
        etag: String? = nil
    ) {
        self.status = status
        self.contentLength = contentLength
        self.contentRange = contentRange
        self.acceptsRanges = acceptsRanges
        self.etag = etag
    }

    /// Reads the fields from response headers (names are case-insensitive; the first value wins).
    package init(status: Int, header: (String) -> String?) {
        let range = header("Content-Range").flatMap(ContentRange.parse)
        self.init(
            status: status,
            contentLength: header("Content-Length").flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
                .flatMap { $0 >= 0 ? $0 : nil },
            contentRange: range,
            acceptsRanges: status == 206
                || header("Accept-Ranges").map { $0.lowercased().split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "bytes" } }
                    == true,
            etag: TextSanitizer.optionalSingleLine(header("ETag"), maxLength: 200))
    }

    /// The whole file's size: a range's total, else a 200's `Content-Length`; nil when unknown.
    package var totalSize: Int64? {
        if let total = contentRange?.total { return total }
        return status == 200 ? contentLength : nil
    }

    /// Where this body starts in the file: a 206's range start, 0 for a 200.
    package var bodyStart: Int64? {
        switch status {
        case 200: return 0
        case 206: return contentRange?.start
        default: return nil
        }
    }
}

/// An HTTP `Content-Range` value in bytes (RFC 9110 section 14.4).
package struct ContentRange: Sendable, Hashable {
    /// First and last byte of the range; nil in the unsatisfied form `bytes */total`.
    package var start: Int64?
    package var end: Int64?
    /// The complete length; nil when the server wrote `*`.
    package var total: Int64?

    package init(start: Int64?, end: Int64?, total: Int64?) {
        self.start = start
        self.end = end
        self.total = total
    }

    /// `bytes 100-199/1000`, `bytes 100-199/*` or `bytes */1000`; nil for anything else
    /// (another unit, a range that ends before it starts, digits that overflow).
    package static func parse(_ value: String) -> ContentRange? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = trimmed.dropFirst("bytes ".count).trimmingCharacters(in: .whitespaces)
        let halves = spec.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        let totalText = halves[1].trimmingCharacters(in: .whitespaces)
        let total: Int64?
        if totalText == "*" {
            total = nil
        } else {
            guard let value = number(totalText) else { return nil }
            total = value
        }
        let rangeText = halves[0].trimmingCharacters(in: .whitespaces)
        if rangeText == "*" {
            guard total != nil else { return nil }
            return ContentRange(start: nil, end: nil, total: total)
        }
        let bounds = rangeText.split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let start = number(String(bounds[0])), let end = number(String(bounds[1])), start <= end
        else { return nil }
        if let total, end >= total { return nil }
        return ContentRange(start: start, end: end, total: total)
    }

    private static func number(_ text: String) -> Int64? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(text)
    }
}
