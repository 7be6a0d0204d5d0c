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
    @Suite("The queue and played marks")
    struct Queue {
        /// `u` puts episodes and sessions on the queue, the Up Next tab lists them in order, `K`/`J`
        /// move an entry, `X` takes one off, and Enter plays the queue from the entry selected; `m`
        /// marks an episode played and `M` all of a podcast's, and the Podcasts tab counts what is new.
        @Test func theQueueIsFilledReorderedPlayedAndEpisodesMarked() async throws {
            let f = try await Fixture()
            try f.addSession("Morning")
            let episodes = (1...3).map { n in
                FeedEpisode(guid: "ep-\(n)", title: "Talk \(n)", enclosure: Enclosure(url: URL(string: "https://cdn.example.org/\(n).mp3")!))
            }
            let podcast = try f.library.store.addPodcast(
                feedURL: URL(string: "https://example.org/talks.xml")!, feed: PodcastFeed(title: "Talks", episodes: episodes), validators: .none)
            f.controller.load()
            f.press(.tab)
            #expect(f.screen.contains("3 new  3/3"), "screen:\n\(f.screen)")
            f.press(.enter)
            try await f.until("the episodes are listed") { f.screen.contains("Talk 1") }
            #expect(f.screen.contains("u Queue"), "screen:\n\(f.screen)")
            f.press(.character("u"), .down, .character("u"), .character("u"))
            // Twice is refused with an alert; the queue keeps one entry per episode.
            try await f.until("the second u on one episode is an alert") { f.model { $0.alert?.code == .alreadyInLibrary } }
            f.press(.enter)
            f.press(.down, .character("m"))
            #expect(try f.library.store.episodes(podcastID: podcast.id).filter(\.played).map(\.title) == ["Talk 3"])
            f.press(.escape, .character("M"))
            #expect(try f.library.store.episodes(podcastID: podcast.id).allSatisfy(\.played))
            #expect(f.screen.contains("0/3") && !f.screen.contains(" new"), "screen:\n\(f.screen)")

            f.press(.tab)
            #expect(f.model { $0.tab } == .queue)
            #expect(f.screen.contains("1. Talk 1") && f.screen.contains("2. Talk 2"), "screen:\n\(f.screen)")
            f.press(.down, .character("K"))
            #expect(try f.library.store.queue().map(\.title) == ["Talk 2", "Talk 1"])
            #expect(f.model { $0.selection } == 0, "the selection moves with the entry")
            f.press(.character("X"))
            #expect(try f.library.store.queue().map(\.title) == ["Talk 1"])
            f.press(.tab)
            #expect(f.model { $0.tab } == .sessions)
            f.press(.character("u"), .left)
            #expect(try f.library.store.queue().map(\.title) == ["Talk 1", "Morning"])
            // Enter on the session's entry plays the queue from there: the session plays.
            f.press(.down, .enter)
            try await f.until("the queued session plays") { f.playerState.currentTrack?.title == "Morning stage" && f.playerState.name == .playing }
            await f.controller.finish()
        }
    }
}
