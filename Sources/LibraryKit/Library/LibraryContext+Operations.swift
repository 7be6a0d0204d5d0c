import Foundation
import Library
import PlayerCore
import PlayerKit
import Streaming

extension LibraryContext {
    /// What playing an episode means: its audio from the saved position (0 once it was finished),
    /// from its downloaded file when it is whole on disk (no network needed), or, for an episode
    /// without audio, its own failure (no Retry). The track's identity is the episode either way,
    /// so its place is saved the same. `start` (a search hit's time) replaces the saved position.
    /// A library that cannot be read throws.
    package func episodeToPlay(id: Int64, from start: TimeInterval? = nil) throws(PlaybackError) -> PlayerEvent.Replacement {
        let record = try store.episode(id: id)
        var position = start ?? 0
        if start == nil { position = try store.resumePosition(episodeID: id) }
        var episode = record.episode
        let sources = AudioSource.order(
            enclosure: record.audioURL, alternates: record.alternates, prefersLowBitrate: (try? downloads.prefersLowBitrate()) ?? false
        ).map(\.url)
        let streamed = sources.first
        let kept = downloads.playableFile(episodeID: id)
        // From disk when it is kept; else from the first source in the listener's order (the
        // lowest bitrate first for one who prefers it), falling over to the others in turn.
        if let file = kept ?? (streamed != record.audioURL ? streamed : nil) {
            episode = Episode(
                id: episode.id, title: episode.title, podcastTitle: episode.podcastTitle, audioURL: file, duration: episode.duration,
                chaptersURL: episode.chaptersURL, transcript: episode.transcript)
        }
        do throws(PlaybackError) {
            if let live = record.live, live.phase != .ended {
                return .play(PlayRequest(track: try Self.liveTrack(record, status: live)))
            }
            var track = try episode.track()
            if kept == nil, sources.count > 1 { track = track.with(alternates: Array(sources.dropFirst())) }
            return .play(PlayRequest(track: track, startPosition: position))
        } catch {
            return .cannotPlay(error)
        }
    }

    /// A live episode on air plays as radio does: a stream with no end of its own, reconnected
    /// when it drops, never "finished" because its connection closed. One still announced cannot
    /// play yet, and says when it starts.
    private static func liveTrack(_ record: EpisodeRecord, status: LiveStatus) throws(PlaybackError) -> Track {
        guard status.phase == .live else {
            let when = status.start.map { " at \(FeedDate.isoString(from: $0))" } ?? ""
            throw PlaybackError(.streamUnavailable, underlying: "the live episode has not started; it is announced to start\(when)")
        }
        guard let url = record.audioURL else { throw PlaybackError(.missingAudioURL) }
        return Track(id: "episode:\(record.id)", url: url, kind: .liveStream, title: record.title, album: record.podcastTitle)
    }

    /// What a playlist file gave the library.
    package struct StationImport: Sendable {
        package var added: [StationRecord] = []
        /// Entries that could not be kept, by name.
        package var failed: [(name: String, error: PlaybackError)] = []
        /// Every entry of the file, http(s) or not.
        package var entries = 0
    }

    /// Keeps every http(s) entry of a .pls, .m3u or .m3u8 file's bytes as a station, named after
    /// the file's title for it (or its host). Other entries (file paths, relative names) are
    /// skipped: a station is an address on the network.
    package func importStations(_ data: Data, file: URL) throws(PlaybackError) -> StationImport {
        let kind = PlaylistKind.detect(contentType: nil, url: file, firstBytes: [UInt8](data.prefix(PlaylistKind.sniffLength))) ?? .m3u
        // No base URL: a relative entry cannot be a station.
        let entries = try PlaylistParser.parse(data, kind: kind, baseURL: nil)
        var result = StationImport(entries: entries.count)
        for entry in entries {
            guard let scheme = entry.url.scheme?.lowercased(), ["http", "https"].contains(scheme) else { continue }
            let name = entry.title ?? entry.url.host ?? "Station"
            do throws(PlaybackError) {
                result.added.append(try store.addStation(name: name, url: entry.url))
            } catch {
                result.failed.append((name, error))
            }
        }
        return result
    }
}

extension PodcastLibrary.ImportOutcome {
    /// The failures of an import, as a listener wants them told: one per feed, except feeds not
    /// tried because their host's circuit is open, which are told once per host with their count.
    package static func failures(of outcomes: [Self]) -> [(about: URL?, host: String?, count: Int, error: PlaybackError)] {
        var told: [(about: URL?, host: String?, count: Int, error: PlaybackError)] = []
        for case .failed(let url, let error) in outcomes {
            if error.code == .circuitOpen {
                let host = error.host ?? "?"
                if let index = told.firstIndex(where: { $0.about == nil && $0.host == host }) {
                    told[index].count += 1
                } else {
                    told.append((nil, host, 1, error))
                }
            } else {
                told.append((url, nil, 1, error))
            }
        }
        return told
    }
}
