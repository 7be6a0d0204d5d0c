import Foundation
import PlayerCore

/// Icecast's `/status-json.xsl` document, decoded leniently and sanitised as it is decoded.
///
/// Why lenient: Icecast 2.4 builds this JSON with an XSL transform, so its shape follows the XML:
/// `icestats.source` is absent when no source is connected, an object when one is, and an array
/// when several are; numeric-looking text (a title "1999") is written as a number; fields a source
/// client did not set are missing. Only a document that is not JSON or has no `icestats` object is
/// `malformedData`.
package struct IcecastStatus: Decodable, Sendable, Equatable {
    /// One mount point's entry. Every text is sanitised and capped; every field is optional.
    package struct Source: Decodable, Sendable, Equatable {
        /// The stream title; for MP3 sources usually the whole "Artist - Title".
        package let title: String?
        /// Set by Ogg/Vorbis sources (or `artist=` on the admin API); usually absent.
        package let artist: String?
        /// The station name (`ice-name` of the source client).
        package let serverName: String?
        package let genre: String?
        /// kbit/s; nil when absent or not a believable positive number.
        package let bitrate: Int?
        /// The public URL of the mount, e.g. `http://host:8000/stream`.
        package let listenURL: String?

        package init(title: String?, artist: String?, serverName: String?, genre: String?, bitrate: Int?, listenURL: String?) {
            self.title = title
            self.artist = artist
            self.serverName = serverName
            self.genre = genre
            self.bitrate = bitrate
            self.listenURL = listenURL
        }

        enum CodingKeys: String, CodingKey {
            case title, artist, genre, bitrate
            case serverName = "server_name"
            case listenURL = "listenurl"
        }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            title = container.metadataText(forKey: .title)
            artist = container.metadataText(forKey: .artist)
            serverName = container.metadataText(forKey: .serverName)
            genre = container.metadataText(forKey: .genre)
            bitrate = container.metadataText(forKey: .bitrate).flatMap(Self.parseBitrate)
            listenURL = container.metadataText(forKey: .listenURL)
        }

        /// The mount's path from `listenurl` ("/stream"), or nil.
        package var mountPath: String? {
            guard let listenURL, let components = URLComponents(string: listenURL), !components.path.isEmpty else { return nil }
            return components.path
        }

        /// The track as artist and title: `artist` and `title` when both are set, else `title` split.
        package var track: StreamTitle {
            if let artist, let title { return StreamTitle(title: title, artist: artist) }
            return StreamTitle(parsing: title)
        }

        /// Highest believable bitrate, kbit/s (as for `icy-br`).
        static let maxBitrate = 100_000

        /// "128", or "128,128" as some servers send it; the first value counts.
        static func parseBitrate(_ text: String) -> Int? {
            let first = text.split(separator: ",", omittingEmptySubsequences: false).first ?? ""
            guard let value = Int(first.trimmingCharacters(in: .whitespaces)), value > 0, value <= maxBitrate else { return nil }
            return value
        }
    }

    /// Every connected source, in document order; empty when `source` is absent.
    package let sources: [Source]

    package init(sources: [Source]) {
        self.sources = sources
    }

    enum CodingKeys: String, CodingKey { case icestats }
    enum StatsKeys: String, CodingKey { case source }

    package init(from decoder: any Decoder) throws {
        let stats = try decoder.container(keyedBy: CodingKeys.self).nestedContainer(keyedBy: StatsKeys.self, forKey: .icestats)
        if let many = try? stats.decodeIfPresent([Source].self, forKey: .source) {
            sources = many
        } else if let one = try? stats.decodeIfPresent(Source.self, forKey: .source) {
            sources = [one]
        } else {
            sources = []  // absent, null, or a shape no Icecast writes: no sources.
        }
    }

    /// The source for `mount` ("/stream" or "stream"): the one whose `listenurl` path equals it,
    /// else the only source when there is exactly one (a proxy may rename the mount), else nil.
    package func source(forMount mount: String) -> Source? {
        let wanted = mount.hasPrefix("/") ? mount : "/" + mount
        if let exact = sources.first(where: { $0.mountPath == wanted }) { return exact }
        return sources.count == 1 ? sources[0] : nil
    }

    /// Decodes a status document; anything that does not decode is `malformedData`.
    package static func decode(_ data: Data) throws(PlaybackError) -> IcecastStatus {
        do {
            return try JSONDecoder().decode(IcecastStatus.self, from: data)
        } catch {
            throw PlaybackError(.malformedData, underlying: "IcecastStatus: \(error)")
        }
    }
}
