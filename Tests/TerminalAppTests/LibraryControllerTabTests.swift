import Foundation
import Library
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
    @Suite("Tabs and search")
    struct Tabs {
        @Test func tabsSearchAndSelectionMoveOverTheSessions() async throws {
            let f = try await Fixture()
            try f.addSession("Morning")
            try f.addSession("Evening")
            f.controller.load()
            f.press(.tab, .tab, .tab)
            #expect(f.model { $0.tab } == .sessions)
            #expect(f.screen.contains("Morning") && f.screen.contains("Evening"))
            f.press(.character("/"))
            f.type("eve")
            f.press(.enter)
            #expect(f.screen.contains("Evening") && !f.screen.contains("Morning"))
            f.press(.escape)
            #expect(f.screen.contains("Morning"))
        }

        /// The Podcasts tab shows each podcast's unplayed episodes and the time silence trimming saved.
        @Test func thePodcastsTabShowsTheTimeTrimmingSaved() async throws {
            let f = try await Fixture()
            let episodes = (1...2).map { number in
                FeedEpisode(
                    guid: "ep-\(number)", title: "Episode \(number)", duration: 1_800,
                    enclosure: Enclosure(url: URL(string: "https://cdn.example.org/\(number).mp3")!))
            }
            let podcast = try f.library.store.addPodcast(
                feedURL: URL(string: "https://example.org/feed.xml")!, feed: PodcastFeed(title: "Rivers", episodes: episodes),
                validators: .none)
            for episode in try f.library.store.episodes(podcastID: podcast.id) {
                try f.library.store.addTrimmedSilence(episodeID: episode.id, seconds: 95)
            }
            f.controller.load()
            f.press(.tab)
            #expect(f.model { $0.tab } == .podcasts)
            #expect(f.screen.contains("2/2  saved 3:10"), "screen:\n\(f.screen)")
        }
    }
}
