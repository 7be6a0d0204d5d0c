import Foundation
import GRDB
import PlayerCore

/// Where an episode's download stands.
package enum DownloadState: String, Sendable, Codable, Hashable {
    /// Asked for and not finished: bytes may be on disk under the partial name.
    case downloading
    /// Whole, on disk under its final name: the episode plays from there.
    case downloaded
    /// The last try ended with an error (`errorCode`); what it fetched stays for the next try.
    case failed
}

/// An episode kept (or being kept) on disk, with what deciding what to remove needs to know of it.
package struct DownloadRecord: Sendable, Equatable, Codable {
    package var episodeID: Int64
    package var podcastID: Int64
    /// The file's name inside the episodes folder: hashed, never from a remote title.
    package var fileName: String
    package var state: DownloadState
    package var receivedBytes: Int64
    package var totalBytes: Int64?
    package var etag: String?
    package var lastModified: String?
    /// The `PlaybackError.Code` the last try failed with.
    package var errorCode: Int?
    package var completedAt: Date?
    /// The episode's publication date (newest downloads are kept first).
    package var publishedAt: Date?
    /// The listener's place in the episode: a partly played download is never removed unasked.
    package var position: TimeInterval
    package var played: Bool

    /// 0...1 when the file's length is known.
    package var fraction: Double? {
        guard let totalBytes, totalBytes > 0 else { return state == .downloaded ? 1 : nil }
        return min(1, Double(receivedBytes) / Double(totalBytes))
    }

    /// Started but neither finished nor marked played: removing it would lose the listener's place.
    package var isPartlyPlayed: Bool { position > 0 && !played }

    /// The partial file's name, beside the final one until the download is whole.
    package var partialFileName: String { Self.partialName(of: fileName) }

    package static func partialName(of fileName: String) -> String { fileName + ".part" }
}

extension DownloadRecord {
    /// Columns: the download table plus `podcastId`, `publishedAt`, `position`, `played` (see `DownloadQueries`).
    init(row: Row) throws {
        self.init(
            episodeID: try row.decode(Int64.self, forColumn: "episodeId"),
            podcastID: try row.decode(Int64.self, forColumn: "podcastId"),
            fileName: try row.decode(String.self, forColumn: "fileName"),
            state: DownloadState(rawValue: try row.decode(String.self, forColumn: "state")) ?? .failed,
            receivedBytes: try row.decode(Int64.self, forColumn: "receivedBytes"),
            totalBytes: try row.decode(Int64?.self, forColumn: "totalBytes"),
            etag: try row.decode(String?.self, forColumn: "etag"),
            lastModified: try row.decode(String?.self, forColumn: "lastModified"),
            errorCode: try row.decode(Int?.self, forColumn: "errorCode"),
            completedAt: try row.date("completedAt"),
            publishedAt: try row.date("publishedAt"),
            position: try row.decode(Double.self, forColumn: "position"),
            played: try row.decode(Bool.self, forColumn: "played"))
    }
}

/// A hashed file name for an episode's download: the episode's id (unique in this library) and a
/// stable hash of its enclosure address, so a changed enclosure gets a new file, and an extension
/// taken from the address or the feed's type only when it is a short run of letters and digits.
/// Nothing of a remote title reaches the file system.
package enum DownloadFileName {
    package static func make(episodeID: Int64, audioURL: URL, audioType: String?) -> String {
        return "episode-\(episodeID)-\(StableHash.hex(audioURL.absoluteString)).\(fileExtension(audioURL: audioURL, audioType: audioType))"
    }

    static func fileExtension(audioURL: URL, audioType: String?) -> String {
        let fromURL = audioURL.pathExtension.lowercased()
        if (1...5).contains(fromURL.count), fromURL.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) { return fromURL }
        switch audioType?.lowercased() {
        case "audio/mpeg", "audio/mp3": return "mp3"
        case "audio/mp4", "audio/x-m4a", "audio/aac", "video/mp4": return "m4a"
        case "audio/ogg", "application/ogg": return "ogg"
        case "audio/opus": return "opus"
        case "audio/flac", "audio/x-flac": return "flac"
        default: return "audio"
        }
    }
}
