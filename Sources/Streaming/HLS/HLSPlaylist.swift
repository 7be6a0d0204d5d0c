import Foundation
import PlayerCore

/// An HLS playlist (RFC 8216), as far as audio playback needs it: a master playlist lists the
/// variants of a stream by bandwidth, a media playlist lists the segments one of them is made of.
///
/// Hand-written: no Swift or C library that Tonearm can use parses HLS playlists on their own
/// (FFmpeg's reader is tied to its own network protocols, which Tonearm never uses), and the
/// format is a few line-based tags. Pure: same bytes, same result, so every case is tested
/// without a network. Every address is resolved against the playlist's own and must be http(s);
/// every title is sanitised where it enters; the counts are bounded (`HLSLimits`).
package enum HLSPlaylist: Sendable, Equatable {
    case master([HLSVariant])
    case media(HLSMediaPlaylist)

    /// Parses a playlist fetched from `url`.
    ///
    /// - Throws: `.malformedData` for a body that is not an HLS playlist (no `#EXTM3U` first
    ///   line), is too large, or has no variant or segment Tonearm could play;
    ///   `.unsupportedFormat` for encrypted segments (`#EXT-X-KEY` with a method other than NONE),
    ///   which Tonearm cannot decrypt.
    package static func parse(_ data: Data, url: URL) throws(PlaybackError) -> HLSPlaylist {
        guard data.count <= HLSLimits.maxPlaylistBytes else {
            throw PlaybackError(.malformedData, underlying: "HLS playlist too large: \(data.count) bytes")
        }
        let lines = PlaylistParser.decodeText([UInt8](data))
            .split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        guard lines.first == "#EXTM3U" else {
            throw PlaybackError(.malformedData, underlying: "not an HLS playlist (no #EXTM3U)")
        }
        if lines.contains(where: { $0.hasPrefix("#EXT-X-STREAM-INF:") }) {
            return .master(try variants(lines, url: url))
        }
        return .media(try media(lines, url: url))
    }

    // MARK: - Master playlists

    static func variants(_ lines: [String], url: URL) throws(PlaybackError) -> [HLSVariant] {
        var found: [HLSVariant] = []
        var pending: [String: String]?
        for line in lines {
            if line.hasPrefix("#EXT-X-STREAM-INF:") {
                pending = attributes(String(line.dropFirst("#EXT-X-STREAM-INF:".count)))
                continue
            }
            guard !line.hasPrefix("#") else { continue }
            defer { pending = nil }
            guard let attributes = pending, found.count < HLSLimits.maxVariants,
                let address = PlaylistParser.resolve(line, baseURL: url, allowFiles: false)
            else { continue }
            let bandwidth = attributes["BANDWIDTH"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
            let codecs = attributes["CODECS"].map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() } } ?? []
            // A variant with a video codec and no audio one is of no use to a radio player.
            let audio = codecs.isEmpty || codecs.contains { $0.hasPrefix("mp4a") || $0.hasPrefix("mp3") || $0.hasPrefix("ac-3") || $0.hasPrefix("ec-3") || $0.hasPrefix("opus") || $0.hasPrefix("flac") }
            guard audio else { continue }
            found.append(HLSVariant(url: address, bandwidth: bandwidth, codecs: codecs))
        }
        guard !found.isEmpty else { throw PlaybackError(.malformedData, underlying: "HLS master playlist without an audio variant") }
        return found
    }

    // MARK: - Media playlists

    static func media(_ lines: [String], url: URL) throws(PlaybackError) -> HLSMediaPlaylist {
        var playlist = HLSMediaPlaylist(targetDuration: 0, firstSequence: 0, segments: [], ended: false)
        var sequence = 0
        var duration: Double?
        var title: String?
        var discontinuity = false
        var initialization: URL?
        // Segment lines read so far, fetchable or not.
        var segmentLines = 0
        for line in lines {
            if line.hasPrefix("#") {
                let (tag, value) = split(line)
                switch tag {
                case "#EXT-X-TARGETDURATION":
                    playlist.targetDuration = Double(value).map { min(max($0, 0), HLSLimits.maxTargetDuration) } ?? 0
                case "#EXT-X-MEDIA-SEQUENCE" where segmentLines == 0:
                    // Only before the first segment (RFC 8216 4.3.3.2): a later one would number
                    // two segments alike, and the follower tells new segments by their numbers.
                    sequence = Int(value).map { max(0, $0) } ?? 0
                    playlist.firstSequence = sequence
                case "#EXTINF":
                    let parts = value.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
                    duration = parts.first.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }.map { max(0, $0) }
                    title = parts.count > 1 ? TextSanitizer.optionalSingleLine(String(parts[1])) : nil
                case "#EXT-X-DISCONTINUITY":
                    discontinuity = true
                case "#EXT-X-ENDLIST":
                    playlist.ended = true
                case "#EXT-X-MAP":
                    initialization = attributes(value)["URI"].flatMap { PlaylistParser.resolve($0, baseURL: url, allowFiles: false) }
                case "#EXT-X-KEY":
                    let method = attributes(value)["METHOD"]?.uppercased() ?? "NONE"
                    if method != "NONE" {
                        throw PlaybackError(.unsupportedFormat, underlying: "encrypted HLS segments (\(method))")
                    }
                default:
                    break
                }
                continue
            }
            // A segment's address; one Tonearm could not fetch is skipped, its number kept.
            defer {
                segmentLines += 1
                sequence += 1
                duration = nil
                title = nil
                discontinuity = false
            }
            guard playlist.segments.count < HLSLimits.maxSegments, let address = PlaylistParser.resolve(line, baseURL: url, allowFiles: false)
            else { continue }
            playlist.segments.append(HLSSegment(
                sequence: sequence, url: address, duration: duration ?? playlist.targetDuration, title: title,
                discontinuity: discontinuity, initialization: initialization))
        }
        guard !playlist.segments.isEmpty else {
            throw PlaybackError(.malformedData, underlying: "HLS playlist without segments")
        }
        if playlist.targetDuration <= 0 {
            // No usable target duration: the longest segment's, else the fallback. Never 0: the
            // follower waits a target duration between loads, and 0 would load it without pause.
            let longest = playlist.segments.map(\.duration).max() ?? 0
            playlist.targetDuration = longest > 0 ? min(longest, HLSLimits.maxTargetDuration) : HLSLimits.fallbackTargetDuration
        }
        return playlist
    }

    // MARK: - Attributes

    /// `#TAG:value` as ("#TAG", "value"); a tag without a value has "".
    static func split(_ line: String) -> (String, String) {
        guard let colon = line.firstIndex(of: ":") else { return (line, "") }
        return (String(line[..<colon]), String(line[line.index(after: colon)...]))
    }

    /// An attribute list (`BANDWIDTH=128000,CODECS="mp4a.40.2,mp4a.40.5",URI="init.mp4"`): names
    /// upper-cased, quotes removed, commas inside quotes kept. At most `HLSLimits.maxAttributes`.
    static func attributes(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        var name = ""
        var value = ""
        var inName = true
        var quoted = false
        func flush() {
            let key = name.trimmingCharacters(in: .whitespaces).uppercased()
            if !key.isEmpty, result.count < HLSLimits.maxAttributes { result[key] = value.trimmingCharacters(in: .whitespaces) }
            name = ""
            value = ""
            inName = true
        }
        for character in text {
            switch character {
            case "\"" where !inName:
                quoted.toggle()
            case "=" where inName:
                inName = false
            case "," where !quoted:
                flush()
            default:
                if inName { name.append(character) } else { value.append(character) }
            }
        }
        flush()
        return result
    }
}

/// One variant of a master playlist.
package struct HLSVariant: Sendable, Equatable {
    package let url: URL
    /// Bits per second the variant peaks at; nil when the playlist does not say.
    package let bandwidth: Int?
    /// RFC 6381 codec names, lower-cased (`mp4a.40.2`); empty when the playlist does not say.
    package let codecs: [String]
}

/// A media playlist: its segments in order, numbered by media sequence.
package struct HLSMediaPlaylist: Sendable, Equatable {
    /// The longest a segment may be, seconds: how often a live playlist is reloaded.
    package var targetDuration: Double
    /// The media sequence number of the first segment listed.
    package var firstSequence: Int
    package var segments: [HLSSegment]
    /// `#EXT-X-ENDLIST`: no segment will be added (a finite, seekable item).
    package var ended: Bool
}

/// One segment of a media playlist.
package struct HLSSegment: Sendable, Equatable {
    /// Its media sequence number: what tells a new segment from one already fetched.
    package let sequence: Int
    package let url: URL
    /// Seconds, as `#EXTINF` says (the target duration when it does not).
    package let duration: Double
    /// `#EXTINF`'s title, sanitised; nil when absent.
    package let title: String?
    /// `#EXT-X-DISCONTINUITY` before it: the encoding may change here.
    package let discontinuity: Bool
    /// The fragmented-MP4 initialisation section (`#EXT-X-MAP`) it needs, if any.
    package let initialization: URL?
}

/// Bounds on what an HLS playlist may make Tonearm keep.
package enum HLSLimits {
    package static let maxPlaylistBytes = 1024 * 1024
    package static let maxVariants = 32
    package static let maxSegments = 10_000
    package static let maxAttributes = 32
    /// The largest segment fetched (an audio segment of 10 s at 320 kbit/s is 400 KB).
    package static let maxSegmentBytes = 16 * 1024 * 1024
    /// A target duration above this is taken as this (reloads stay sensible), seconds.
    package static let maxTargetDuration = 60.0
    /// When a playlist gives no target duration and no segment length, seconds.
    package static let fallbackTargetDuration = 6.0
}
