import Foundation
import Library
import LibraryKit
import PlayerCore
import PlayerKit
import Presentation
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

        /// A feed that has not answered for its last runs over days says so on the Podcasts tab,
        /// and stops saying so with its first answer.
        @Test func aFeedThatStoppedAnsweringIsMarkedUsuallyUnreachable() async throws {
            let f = try await Fixture()
            let store = f.library.store
            let quiet = try store.addPodcast(feedURL: URL(string: "https://example.org/quiet.xml")!, feed: PodcastFeed(title: "Quiet"), validators: .none)
            _ = try store.addPodcast(feedURL: URL(string: "https://example.org/fine.xml")!, feed: PodcastFeed(title: "Fine"), validators: .none)
            let since = Date().addingTimeInterval(-10 * 86_400)
            for day in 0..<LearnedRetryRule.standard.failedRuns {
                try store.recordRun(.feed(podcastID: quiet.id), hostClass: .internet, ending: .failed(.connectionTimeout), at: since + Double(day) * 86_400)
            }
            f.controller.load()
            f.press(.tab)
            let marked = "unreachable since \(EpisodeText.day(since))"
            #expect(f.screen.contains("Quiet") && f.screen.contains(marked), "screen:\n\(f.screen)")
            #expect(f.screen.components(separatedBy: "unreachable since").count == 2, "only the quiet feed is marked:\n\(f.screen)")
            try store.recordRun(.feed(podcastID: quiet.id), hostClass: .internet, ending: .succeeded(tries: 1), at: Date())
            for _ in LibraryTab.allCases { f.press(.tab) }  // round the tabs, back to Podcasts, read anew
            #expect(f.model { $0.tab } == .podcasts)
            #expect(!f.screen.contains("unreachable since"), "screen:\n\(f.screen)")
        }

        @Test func aStationThatStoppedAnsweringIsMarkedUsuallyUnreachable() async throws {
            let f = try await Fixture()
            let store = f.library.store
            let quiet = try store.addStation(name: "Quiet FM", url: URL(string: "https://example.org/quiet.mp3")!, genre: "Jazz")
            _ = try store.addStation(name: "Fine FM", url: URL(string: "https://example.org/fine.mp3")!)
            let since = Date().addingTimeInterval(-10 * 86_400)
            for day in 0..<LearnedRetryRule.standard.failedRuns {
                try store.recordRun(.station(stationID: quiet.id), hostClass: .internet, ending: .failed(.connectionTimeout), at: since + Double(day) * 86_400)
            }
            f.controller.load()
            #expect(f.model { $0.tab } == .stations)
            let marked = "unreachable since \(EpisodeText.day(since))  Ja"
            #expect(f.screen.contains("Quiet FM") && f.screen.contains(marked), "screen:\n\(f.screen)")
            #expect(f.screen.components(separatedBy: "unreachable since").count == 2, "only the quiet station is marked:\n\(f.screen)")
        }
    }
}
