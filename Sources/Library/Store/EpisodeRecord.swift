import Foundation
import GRDB
import PlayerCore

/// A podcast episode in the library with where the listener stopped. Printed by `--json` list
/// commands, so its property names are the JSON keys.
package struct EpisodeRecord: Sendable, Equatable, Codable {
    package var id: Int64
    package var podcastID: Int64
    package var podcastTitle: String
    /// The feed's stable identity for the item (see `FeedEpisode.guid`).
    package var guid: String
    package var title: String
    package var summary: String?
    package var publishedAt: Date?
    /// Seconds: what the player measured when it saved a position, else what the feed said.
    package var duration: TimeInterval?
    /// Nil for an item without usable audio (playing it is `.missingAudioURL`).
    package var audioURL: URL?
    /// Bytes, as the feed claims (a hint only).
    package var audioLength: Int64?
    package var audioType: String?
    package var chaptersURL: URL?
    /// The transcript the feed names, when it names one in a format Tonearm reads.
    package var transcript: TranscriptLink?
    /// The season and the number in it, as the feed numbers them.
    package var season: Int?
    package var episodeNumber: Double?
    /// The episode's people (hosts, guests), as its feed names them.
    package var persons: [FeedPerson]
    /// Clips of it to hear first, as its feed names them.
    package var soundbites: [Soundbite]
    /// Chapters written into its feed (Podlove Simple Chapters).
    package var inlineChapters: [Chapter]
    /// Other files of it (bitrates, formats, mirrors), as its feed offers them.
    package var alternates: [AlternateEnclosure]
    /// Set for a live episode: where its broadcast stands.
    package var live: LiveStatus?
    /// Seconds into the episode where the listener stopped; 0 when never played.
    package var position: TimeInterval
    /// Finished (or marked so by the listener).
    package var played: Bool
    /// Kept whole on disk: the episode plays without the network.
    package var downloaded: Bool
    /// Where its download stands, when one was ever asked for.
    package var download: DownloadState?
    /// 0...1 of a download under way (or failed part way) whose length is known.
    package var downloadProgress: Double?

    package init(
        id: Int64, podcastID: Int64, podcastTitle: String, guid: String, title: String, summary: String? = nil,
        publishedAt: Date? = nil, duration: TimeInterval? = nil, audioURL: URL? = nil, audioLength: Int64? = nil,
        audioType: String? = nil, chaptersURL: URL? = nil, transcript: TranscriptLink? = nil, position: TimeInterval = 0, played: Bool = false,
        download: DownloadState? = nil, downloadProgress: Double? = nil, season: Int? = nil, episodeNumber: Double? = nil,
        persons: [FeedPerson] = [], soundbites: [Soundbite] = [], inlineChapters: [Chapter] = [], alternates: [AlternateEnclosure] = [],
        live: LiveStatus? = nil
    ) {
        self.live = live
        self.alternates = alternates
        self.inlineChapters = inlineChapters
        self.soundbites = soundbites
        self.season = season
        self.episodeNumber = episodeNumber
        self.persons = persons
        self.transcript = transcript
        self.id = id
        self.podcastID = podcastID
        self.podcastTitle = podcastTitle
        self.guid = guid
        self.title = title
        self.summary = summary
        self.publishedAt = publishedAt
        self.duration = duration
        self.audioURL = audioURL
        self.audioLength = audioLength
        self.audioType = audioType
        self.chaptersURL = chaptersURL
        self.position = position
        self.played = played
        self.downloaded = download == .downloaded
        self.download = download
        self.downloadProgress = downloadProgress
    }

    /// The episode as the player knows it; its id is the library id, so a saved position can be
    /// written back with `LibraryStore.savePosition(episodeID:)`.
    package var episode: Episode {
        Episode(
            id: String(id), title: title, podcastTitle: podcastTitle, audioURL: audioURL, duration: duration, chaptersURL: chaptersURL,
            transcript: transcript)
    }
}

extension EpisodeRecord {
    private static func transcript(_ row: Row) throws -> TranscriptLink? {
        guard let url = try row.url("transcriptURL"),
            let format = try row.decode(String?.self, forColumn: "transcriptType").flatMap(TranscriptFormat.init(rawValue:))
        else { return nil }
        return TranscriptLink(url: url, format: format)
    }

    /// Columns: the episode table plus `podcastTitle`, `position`, `played`, `knownDuration` and the
    /// download's `downloadState`, `downloadReceived` and `downloadTotal` (see `EpisodeQueries`).
    init(row: Row) throws {
        let download = try row.decode(String?.self, forColumn: "downloadState").flatMap(DownloadState.init(rawValue:))
        let received = try row.decode(Int64?.self, forColumn: "downloadReceived")
        let total = try row.decode(Int64?.self, forColumn: "downloadTotal")
        var progress: Double?
        if download == .downloaded {
            progress = 1
        } else if let received, let total, total > 0 {
            progress = min(1, Double(received) / Double(total))
        }
        self.init(
            id: try row.decode(Int64.self, forColumn: "id"),
            podcastID: try row.decode(Int64.self, forColumn: "podcastId"),
            podcastTitle: try row.decode(String.self, forColumn: "podcastTitle"),
            guid: try row.decode(String.self, forColumn: "guid"),
            title: try row.decode(String.self, forColumn: "title"),
            summary: try row.decode(String?.self, forColumn: "summary"),
            publishedAt: try row.date("publishedAt"),
            duration: try row.decode(Double?.self, forColumn: "knownDuration"),
            audioURL: try row.url("audioURL"),
            audioLength: try row.decode(Int64?.self, forColumn: "audioLength"),
            audioType: try row.decode(String?.self, forColumn: "audioType"),
            chaptersURL: try row.url("chaptersURL"),
            transcript: try Self.transcript(row),
            position: try row.decode(Double.self, forColumn: "position"),
            played: try row.decode(Bool.self, forColumn: "played"),
            download: download, downloadProgress: progress,
            season: try row.decode(Int?.self, forColumn: "season"), episodeNumber: try row.decode(Double?.self, forColumn: "episodeNumber"),
            persons: LibraryJSON.list(try row.decode(String?.self, forColumn: "persons")),
            soundbites: LibraryJSON.list(try row.decode(String?.self, forColumn: "soundbites")),
            inlineChapters: LibraryJSON.list(try row.decode(String?.self, forColumn: "inlineChapters")),
            alternates: LibraryJSON.list(try row.decode(String?.self, forColumn: "alternates")),
            live: try row.decode(String?.self, forColumn: "live").flatMap(LibraryJSON.decoded))
    }
}
