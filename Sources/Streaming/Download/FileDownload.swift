import Foundation
import PlayerCore

/// One file fetched over HTTP into a partial file on disk, the way podcast players keep episodes:
/// the bytes already on disk are the truth, so a download cut by a dropped connection, a closed
/// laptop or a killed process continues at the next byte with `Range`, and a file that changed on
/// the server (a new ETag or length) starts over instead of being joined to the old one.
///
/// The values here are what `NetworkClient.download` takes and reports; the caller names the
/// partial file and renames it once the download is whole, so a file named as complete never
/// holds a part.
package enum FileDownload {
    /// What identifies the version of the file the partial bytes belong to. Sent as `If-Range`,
    /// so a server whose file changed answers with the whole new file instead of a range of it.
    package struct Validators: Sendable, Hashable, Codable {
        package var etag: String?
        package var lastModified: String?
        /// The whole file's length, when a server said it.
        package var length: Int64?

        package init(etag: String? = nil, lastModified: String? = nil, length: Int64? = nil) {
            self.etag = etag
            self.lastModified = lastModified
            self.length = length
        }

        /// The `If-Range` value: a strong ETag, else the date (RFC 9110 section 13.1.5 allows
        /// no weak tag there).
        var ifRange: String? {
            if let etag, !etag.hasPrefix("W/") { return etag }
            return lastModified
        }

        /// True when `other` describes a different file than this one: a different ETag or
        /// length, where both sides know it.
        func contradicts(_ other: Validators) -> Bool {
            if let etag, let otherTag = other.etag, etag != otherTag { return true }
            if let length, let otherLength = other.length, length != otherLength { return true }
            return false
        }
    }

    /// Where a download stands, reported as bytes arrive.
    package struct Progress: Sendable, Equatable {
        /// Bytes of the file on disk so far.
        package var received: Int64
        /// The whole file's length, when known.
        package var total: Int64?

        package init(received: Int64, total: Int64?) {
            self.received = received
            self.total = total
        }

        /// 0...1 when the length is known.
        package var fraction: Double? {
            guard let total, total > 0 else { return nil }
            return min(1, Double(received) / Double(total))
        }
    }

    /// What a finished download did.
    package struct Outcome: Sendable, Equatable {
        /// The file's length on disk.
        package var bytes: Int64
        package var validators: Validators
        /// `Content-Type` without parameters, lower-cased.
        package var mediaType: String?
        /// Bytes that were on disk at the start and were continued from (0: a fresh download).
        package var resumedFrom: Int64
        /// Times the partial file was thrown away because the server's file had changed.
        package var restarts: Int
    }

    /// How a download behaves.
    package struct Options: Sendable {
        /// Seconds without a byte (to the response head, or between body chunks) after which the
        /// attempt fails as `connectionTimeout` and the retry policy decides.
        package var idleTimeout: Double = 20
        /// Tries for the whole download; each continues at the byte the last one reached.
        package var policy: BackoffPolicy = .network
        /// Progress is reported at most once per this many bytes (and at the end).
        package var progressStep: Int64 = 256 * 1024

        package init() {}
    }

    /// The media types a download accepts when the server names one: audio, video (podcasts in
    /// MP4), and the generic binary types hosts use. A web page (`text/html`), a feed or any other
    /// text is refused as `wrongContentType`: keeping it as an episode would only fail later.
    package static func acceptsMediaType(_ mediaType: String?) -> Bool {
        guard let mediaType, !mediaType.isEmpty else { return true }
        if mediaType.hasPrefix("audio/") || mediaType.hasPrefix("video/") { return true }
        if ["application/octet-stream", "binary/octet-stream", "application/ogg", "application/mp4"].contains(mediaType) { return true }
        // Any other type a host names is accepted unless it is a document.
        return !(mediaType.hasPrefix("text/") || mediaType.contains("html") || mediaType.contains("xml") || mediaType.contains("json"))
    }

    /// True when the first bytes of a body are a web page or another markup document, whatever
    /// the server called them (captive portals and error pages often claim to be audio).
    package static func looksLikeMarkup(_ bytes: some Collection<UInt8>) -> Bool {
        let head = bytes.prefix(512).drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }
        guard let first = head.first, first == UInt8(ascii: "<") else { return false }
        let text = String(decoding: head.prefix(64), as: UTF8.self).lowercased()
        return ["<!doctype", "<html", "<?xml", "<head", "<body", "<rss", "<feed"].contains { text.hasPrefix($0) }
    }
}
