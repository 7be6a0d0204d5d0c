import Foundation
import Library
import LibraryKit
import PlayerCore
import PlayerKit
import Presentation
import Services

/// What the library's list commands print on a terminal: a table, or a hint at how to fill an
/// empty list. Pure, so the wording is tested without running the program.
package enum LibraryListing {
    package static func stations(_ stations: [StationRecord]) -> String {
        guard !stations.isEmpty else { return "No stations yet. Add one with: tonearm station add NAME URL" }
        return TextTable.render(
            header: ["ID", "NAME", "GENRE", "ADDRESS"],
            rows: stations.map { ["\($0.id)", $0.name, $0.genre ?? "-", WebAddress.display($0.url)] })
    }

    /// Stations found in the directory, numbered for `--add N`.
    package static func directory(_ found: [DirectoryStation]) -> String {
        guard !found.isEmpty else { return "The directory found no station. Try fewer words, or another tag or country." }
        let table = TextTable.render(
            header: ["#", "NAME", "FORMAT", "VOTES", "CLICKS"],
            rows: found.enumerated().map { index, station in ["\(index + 1)", station.name, station.summary, "\(station.votes)", "\(station.clicks)"] })
        return table + "\nKeep one with: tonearm station search ... --add N (--json gives each stream's address)"
    }

    package static func podcasts(_ podcasts: [PodcastRecord]) -> String {
        guard !podcasts.isEmpty else { return "No podcasts yet. Add one with: tonearm podcast add FEED_URL" }
        let table = TextTable.render(
            header: ["ID", "EPISODES", "UNPLAYED", "NEW", "TITLE"],
            rows: podcasts.map { ["\($0.id)", "\($0.episodeCount)", "\($0.unplayedCount)", "\($0.newCount)", $0.title] })
        // The shows' own support links, as their feeds name them: shown, never opened.
        let support = podcasts.flatMap { podcast in
            podcast.funding.map { "Support \(podcast.title): \($0.title.map { "\($0) " } ?? "")\($0.url.absoluteString)" }
        }
        return support.isEmpty ? table : table + "\n" + support.joined(separator: "\n")
    }

    /// An episode's soundbites, numbered as `play --soundbite N` takes them: start, length, title.
    package static func soundbites(of episode: EpisodeRecord) -> String {
        guard !episode.soundbites.isEmpty else { return "\(episode.title) has no soundbites." }
        let table = TextTable.render(
            header: ["#", "START", "LENGTH", "TITLE"],
            rows: episode.soundbites.enumerated().map { index, bite in
                ["\(index + 1)", EpisodeText.clock(bite.start), EpisodeText.clock(bite.duration), bite.title ?? episode.title]
            })
        return table + "\nPlay one with: tonearm play --episode \(episode.id) --soundbite N"
    }

    /// The episodes in the order given; a NO. column (S2 E5) when the feed numbers any, and the
    /// guests the feed names after each title.
    package static func episodes(_ episodes: [EpisodeRecord]) -> String {
        guard !episodes.isEmpty else { return "This podcast has no episodes yet." }
        let numbered = episodes.contains { $0.season != nil || $0.episodeNumber != nil }
        let table = TextTable.render(
            header: ["ID", "DATE", "LENGTH", "STATUS", "OFFLINE"] + (numbered ? ["NO."] : []) + ["TITLE"],
            rows: episodes.map { episode in
                let status = EpisodeText.status(hasAudio: episode.audioURL != nil, played: episode.played, position: episode.position)
                let offline = EpisodeText.offline(
                    downloaded: episode.downloaded, downloading: episode.download == .downloading, failed: episode.download == .failed,
                    fraction: episode.downloadProgress)
                let number = numbered ? [EpisodeText.number(season: episode.season, episode: episode.episodeNumber) ?? "-"] : []
                let guests = episode.persons.filter { $0.role == "guest" }.map(\.name)
                return [
                    "\(episode.id)", episode.publishedAt.map(EpisodeText.day) ?? "-", episode.duration.map(EpisodeText.clock) ?? "-",
                    status, offline,
                ] + number + [episode.title + (guests.isEmpty ? "" : " (with \(guests.joined(separator: ", ")))") + live(episode.live)]
            })
        return table + "\nPlay one with: tonearm play --episode ID; keep one for offline listening with: tonearm podcast download ID"
    }

    /// A feed, a podcast's downloads or a station that has not answered for its last runs over days.
    package static func unreachable(since: Date) -> String { "usually unreachable since " + EpisodeText.day(since) }

    /// After a live episode's title: on air now, or when it is announced to start.
    static func live(_ status: LiveStatus?) -> String {
        switch status?.phase {
        case .live: " [LIVE now]"
        case .pending: " [live" + (status?.start.map { " from " + EpisodeText.day($0) + " " + FeedDate.isoString(from: $0).dropFirst(11).prefix(5) + " UTC" } ?? ", not yet") + "]"
        case .ended, nil: ""
        }
    }

    /// The queue, first entry first, with how to change it.
    package static func queue(_ entries: [QueueEntryRecord]) -> String {
        guard !entries.isEmpty else { return "The queue is empty. Add to it with: tonearm queue add --episode ID" }
        let table = TextTable.render(
            header: ["#", "ENTRY", "KIND", "TITLE", "FROM"],
            rows: entries.map { ["\($0.index + 1)", "\($0.id)", $0.kind, $0.title, $0.detail ?? "-"] })
        return table + "\nPlay it with: tonearm queue play; change it with: tonearm queue move|remove ENTRY"
    }

    /// Every download with its size and state, and what they use against the storage cap.
    package static func downloads(_ rows: [(DownloadRecord, EpisodeRecord)], cap: Int64?) -> String {
        let total = rows.reduce(Int64(0)) { $0 + $1.0.receivedBytes }
        let usage = "Downloads use \(DownloadProgress.megabytes(total))"
            + (cap.map { " of the \(DownloadProgress.megabytes($0)) cap" } ?? " (no storage cap)")
        guard !rows.isEmpty else { return "No downloaded episodes. Keep one with: tonearm podcast download EPISODE_ID\n" + usage }
        let table = TextTable.render(
            header: ["ID", "SIZE", "STATE", "STATUS", "PODCAST", "TITLE"],
            rows: rows.map { record, episode in
                let state = EpisodeText.offline(
                    downloaded: record.state == .downloaded, downloading: record.state == .downloading, failed: record.state == .failed,
                    fraction: record.fraction)
                let status = EpisodeText.status(hasAudio: true, played: episode.played, position: episode.position)
                return ["\(record.episodeID)", DownloadProgress.megabytes(record.receivedBytes), state, status, episode.podcastTitle, episode.title]
            })
        return table + "\n" + usage
    }

    package static func sessions(_ sessions: [SessionRecord]) -> String {
        guard !sessions.isEmpty else { return "No sessions yet. Add one with: tonearm session add FILE" }
        return TextTable.render(
            header: ["ID", "STAGES", "NAME", "FILE"], rows: sessions.map { ["\($0.id)", "\($0.stageCount)", $0.name, $0.path] })
    }

    /// The time silence trimming saved, per podcast and in total.
    package static func trimmedSilence(_ saved: [(podcast: String, seconds: TimeInterval)]) -> String {
        guard !saved.isEmpty else { return "Silence trimming has saved no time yet. Turn it on with: tonearm podcast trim-silence PODCAST on" }
        let total = saved.reduce(0) { $0 + $1.seconds }
        let rows = saved.map { [EpisodeText.clock($0.seconds), $0.podcast] } + [[EpisodeText.clock(total), "in total"]]
        return TextTable.render(header: ["SAVED", "PODCAST"], rows: rows)
    }

    /// The line for a podcast just subscribed to.
    package static func added(_ podcast: PodcastRecord) -> String {
        "Added \(podcast.title) (podcast \(podcast.id), \(podcast.episodeCount) episodes)"
    }

    /// The lines of an OPML import (one per feed imported or already there), the failures to
    /// report (one per host or feed) and the closing count.
    package static func opmlImport(_ outcomes: [PodcastLibrary.ImportOutcome])
        -> (lines: [String], failures: [(about: String, error: PlaybackError)], summary: String)
    {
        var lines: [String] = []
        var failed = 0
        for outcome in outcomes {
            switch outcome {
            case .added(let podcast): lines.append(added(podcast))
            case .alreadyThere(let url): lines.append("Already subscribed: \(WebAddress.display(url))")
            case .failed: failed += 1
            }
        }
        let failures = PodcastLibrary.ImportOutcome.failures(of: outcomes).map { told in
            (about: told.about.map(WebAddress.display) ?? "\(told.count) \(told.count == 1 ? "feed" : "feeds") not tried", error: told.error)
        }
        return (lines, failures, "\(outcomes.count - failed) of \(outcomes.count) feeds imported")
    }
}
