import Foundation
import Library
import LibraryKit
import PlayerCore
import PlayerKit
import Services
import Streaming
import Clocks
import TerminalUI
import TestProcesses
import Testing

@testable import TerminalApp

extension LibraryControllerTests {
    @Suite("Downloads")
    struct Downloads {
        /// `d` on an episode keeps it on disk in the background: the Episodes list says so (its hint
        /// names the key), and a download the server refuses is an alert with the download's wording.
        @Test func dDownloadsTheSelectedEpisodeAndTheListSaysSo() async throws {
            let f = try await Fixture()
            let audio = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            let server = try TestHTTPServer { request in
                request.path == "/1.mp3" ? .file(audio, for: request) : .init(status: 404, headers: [("Content-Length", "0")])
            }
            defer { server.stop() }
            let episodes = [
                FeedEpisode(guid: "ep-1", title: "Kept Episode", enclosure: Enclosure(url: server.url("/1.mp3"))),
                FeedEpisode(guid: "ep-2", title: "Missing Episode", enclosure: Enclosure(url: server.url("/2.mp3"))),
            ]
            let podcast = try f.library.store.addPodcast(
                feedURL: URL(string: "https://example.org/feed.xml")!, feed: PodcastFeed(title: "Trains", episodes: episodes), validators: .none)
            let ids = try f.library.store.episodes(podcastID: podcast.id).map(\.id)
            f.controller.load()
            f.press(.tab, .enter)
            try await f.until("the episodes are listed") { f.screen.contains("Kept Episode") }
            #expect(f.screen.contains("d Download"), "screen:\n\(f.screen)")
            f.press(.character("d"))
            try await f.until("the episode is listed as offline") { f.screen.contains("offline") }
            #expect(try f.library.store.episode(id: ids[0]).downloaded)
            #expect(f.library.downloads.playableFile(episodeID: ids[0]) != nil)

            f.press(.down, .character("d"))
            try await f.until("the refused download is an alert") { f.model { $0.alert != nil } }
            #expect(f.model { $0.alert?.code } == .httpNotFound)
            #expect(f.screen.contains("download failed"), "screen:\n\(f.screen)")
        }
    }
}
