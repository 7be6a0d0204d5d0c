import Foundation
import Library
import LibraryKit
import PlayerCore
import PlayerKit
import TerminalApp
import Testing

/// What the list commands print: an empty list says how to fill it; a table shows what a listener
/// needs to pick a row (the id) and nothing a terminal could misread (addresses without
/// credentials).
@Suite("Library listings")
struct LibraryListingTests {
    private let day = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01

    @Test func emptyListsSayHowToFillThem() {
        #expect(LibraryListing.stations([]).contains("tonearm station add NAME URL"))
        #expect(LibraryListing.podcasts([]).contains("tonearm podcast add FEED_URL"))
        #expect(LibraryListing.sessions([]).contains("tonearm session add FILE"))
        #expect(LibraryListing.episodes([]) == "This podcast has no episodes yet.")
    }

    @Test func aStationRowShowsItsIdAndAnAddressWithoutCredentials() throws {
        let url = try #require(URL(string: "http://listener:secret@radio.example/live.mp3"))
        let text = LibraryListing.stations([StationRecord(id: 7, name: "Jazz", url: url, addedAt: day)])
        let lines = text.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("ID"))
        #expect(lines[1].hasPrefix("7"))
        #expect(lines[1].contains("Jazz") && lines[1].contains("radio.example/live.mp3") && lines[1].contains(" - "))
        #expect(!text.contains("secret"))
    }

    @Test func episodesShowTheirStatusAndHowToPlayOne() throws {
        let audio = try #require(URL(string: "https://cdn.example/e.mp3"))
        let episodes = [
            EpisodeRecord(id: 3, podcastID: 1, podcastTitle: "P", guid: "a", title: "Started", publishedAt: day, duration: 3600, audioURL: audio, position: 600),
            EpisodeRecord(id: 2, podcastID: 1, podcastTitle: "P", guid: "b", title: "No audio"),
            EpisodeRecord(id: 4, podcastID: 1, podcastTitle: "P", guid: "c", title: "Kept", audioURL: audio, download: .downloaded),
            EpisodeRecord(
                id: 5, podcastID: 1, podcastTitle: "P", guid: "d", title: "Coming", audioURL: audio, download: .downloading,
                downloadProgress: 0.4),
        ]
        let lines = LibraryListing.episodes(episodes).split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        #expect(lines[0].contains("OFFLINE"))
        #expect(lines[3].contains(" yes ") && lines[4].contains(" 40% "), "\(lines[3])\n\(lines[4])")
        #expect(lines[1].contains(" - "), "never downloaded: \(lines[1])")
        #expect(lines[1].hasPrefix("3") && lines[1].contains("2026-01-01") && lines[1].contains("1:00:00"), "\(lines[1])")
        #expect(lines[1].contains("at 10:00") && lines[1].contains("Started"), "\(lines[1])")
        #expect(lines[2].hasPrefix("2") && lines[2].contains("no audio") && lines[2].contains("No audio"), "\(lines[2])")
        #expect(lines[5] == "Play one with: tonearm play --episode ID; keep one for offline listening with: tonearm podcast download ID")
    }

    /// Feeds not tried because their host's circuit is open are told once for the host, with
    /// their count; every other failure is told for its own feed; the summary counts the rest.
    @Test func anOPMLImportReportGroupsFeedsNotTriedByHost() throws {
        let feed = try #require(URL(string: "https://feeds.example/a.xml"))
        let dead = try #require(URL(string: "https://dead.example/b.xml"))
        let podcast = PodcastRecord(id: 4, title: "Added One", feedURL: feed, addedAt: day, episodeCount: 12)
        let open = PlaybackError.circuitOpen(host: "down.example", retryIn: 30)
        let outcomes: [PodcastLibrary.ImportOutcome] = [
            .added(podcast), .alreadyThere(feed), .failed(dead, PlaybackError(.httpNotFound)),
            .failed(dead, open), .failed(dead, open), .failed(dead, open),
        ]
        let report = LibraryListing.opmlImport(outcomes)
        #expect(report.lines == ["Added Added One (podcast 4, 12 episodes)", "Already subscribed: feeds.example/a.xml"])
        #expect(report.failures.map(\.about) == ["dead.example/b.xml", "3 feeds not tried"])
        #expect(report.failures.map(\.error.code) == [.httpNotFound, .circuitOpen])
        #expect(report.summary == "2 of 6 feeds imported")
    }

    @Test func favouritesExportAsCSVThatASpreadsheetCannotRun() {
        let liked = Date(timeIntervalSince1970: 1_800_000_000)
        let csv = FavouritesCSV.render([
            FavouriteSong(id: 1, title: "Song, with \"quotes\"", artist: "Band", station: "FM", heardAt: liked - 60, likedAt: liked),
            FavouriteSong(id: 2, title: "=HYPERLINK(\"http://evil\")", artist: nil, station: nil, heardAt: nil, likedAt: liked),
        ])
        #expect(csv == """
            title,artist,station,heardAt,likedAt\r
            "Song, with ""quotes\"\"",Band,FM,2027-01-15T07:59:00Z,2027-01-15T08:00:00Z\r
            "'=HYPERLINK(""http://evil\"\")",,,,2027-01-15T08:00:00Z\r

            """)
    }
}
