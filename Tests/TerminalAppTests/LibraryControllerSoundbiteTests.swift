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
    @Suite("Soundbites")
    struct Soundbites {
        /// `b` on an episode plays its first soundbite from its start, for its length, then fades;
        /// `b` again plays the next one; the listener's place in the episode is never touched, and
        /// Enter on the episode afterwards plays it on without the clip's timer cutting it short.
        @Test func bPlaysTheSelectedEpisodesSoundbitesInTurnAndKeepsThePlace() async throws {
            let f = try await Fixture()
            let tone = { (i: Int) in Int16(2_000 * sin(Double(i) * 2 * .pi * 440 / 48_000)) }
            let audio = PCMWAV.data(frames: 48_000 * 30, left: tone, right: tone)
            let server = try TestHTTPServer { request in .file(audio, for: request, contentType: "audio/wav") }
            defer { server.stop() }
            var episode = FeedEpisode(guid: "bites", title: "Long Talk", enclosure: Enclosure(url: server.url("/talk.wav")))
            episode.soundbites = [Soundbite(start: 6, duration: 1.5, title: "Punchline"), Soundbite(start: 20, duration: 1.5)]
            let podcast = try f.library.store.addPodcast(
                feedURL: URL(string: "https://example.org/bites.xml")!, feed: PodcastFeed(title: "Bites", episodes: [episode]), validators: .none)
            let id = try #require(try f.library.store.episodes(podcastID: podcast.id).first?.id)
            try f.library.store.savePosition(episodeID: id, position: 12, duration: 30)
            f.controller.load()
            f.press(.tab, .enter)
            try await f.until("the episodes are listed") { f.screen.contains("Long Talk") }

            f.press(.character("b"))
            try await f.until("the first soundbite plays") { f.playerState.name == .playing && f.model { $0.player.position } != nil }
            let start = f.model { $0.player.position } ?? -1
            #expect(start >= 5.9 && start < 7, "from the soundbite's start, not the saved 12 s: \(start)")
            try await f.until("the clip fades and ends") { f.playerState.name == .finished }
            #expect(f.states.names.withLock { $0.contains(.fadingOut) })
            let end = f.model { $0.player.position } ?? -1
            #expect(end >= 7.4 && end <= 8.7, "1.5 s and the one-second fade: \(end)")
            #expect(try f.library.store.episode(id: id).position == 12, "a taste is not listening")

            f.press(.escape, .character("b"))
            // The first position past the first clip's end is the second clip's.
            try await f.until("the second soundbite plays") { f.playerState.name == .playing && (f.model { $0.player.position } ?? 0) > 9 }
            let second = f.model { $0.player.position } ?? -1
            #expect(second >= 19.9 && second < 21, "\(second)")

            // Enter on the episode while the clip plays: it plays on from its place.
            f.press(.escape, .enter)
            try await f.until("the episode plays from its place") {
                f.playerState.name == .playing && (12..<14).contains(f.model { $0.player.position } ?? -1)
            }
            #expect(f.model { $0.player.sleepTimer } == nil, "the clip's timer went with the clip")
            // The clip's timer would have faded it out by 14.5 s.
            try await f.until("it plays on past where the clip would have ended") {
                f.playerState.name == .playing && (f.model { $0.player.position } ?? 0) >= 16
            }
            await f.controller.finish()
        }
    }
}
