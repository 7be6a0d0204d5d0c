import Foundation
import Library
import LibraryKit
import PlayerCore
import TerminalUI
import TestProcesses
import Testing

@testable import TerminalApp

extension LibraryControllerTests {
    @Suite("Searching the library")
    struct Search {
        /// `/`, words and Enter on the podcast list look in the whole library: a line of a kept
        /// transcript is listed with its time and plays from there; a podcast found opens its
        /// episodes; Esc goes back to the hits, then to the podcasts.
        @Test func wordsFromAnyTranscriptAreListedAndALinePlaysFromItsTime() async throws {
            let tone = { (i: Int) in Int16(2_000 * sin(Double(i) * 2 * .pi * 440 / 48_000)) }
            let audio = PCMWAV.data(frames: 48_000 * 20, left: tone, right: tone)
            let server = try TestHTTPServer { request in .file(audio, for: request, contentType: "audio/wav") }
            defer { server.stop() }
            let f = try await Fixture()
            let episode = FeedEpisode(
                guid: "a", title: "Antarctica", summary: "Cold places.", enclosure: Enclosure(url: server.url("/a.wav"), type: "audio/wav"))
            let podcast = try f.library.store.addPodcast(
                feedURL: server.url("/feed"), feed: PodcastFeed(title: "Penguin Radio", episodes: [episode]), validators: .none)
            let id = try #require(try f.library.store.episodes(podcastID: podcast.id).first?.id)
            let line = TranscriptCue(start: 12, end: 14, text: "Penguins migrate at dawn.", speaker: "Bob")!
            try f.library.store.keepTranscript(Transcript(cues: [line]), format: .webVTT, episodeID: id, url: server.url("/a.vtt"))
            f.controller.load()
            f.press(.tab)
            f.press(.character("/"))
            f.type("penguin")
            f.press(.enter)
            #expect(f.screen.contains("In the library: penguin"), "screen:\n\(f.screen)")
            // The podcast's title first, then the line.
            #expect(f.model { $0.list.items.map(\.title) } == ["Penguin Radio", "0:12 Bob: Penguins migrate at dawn."])

            // The podcast opens its episodes; Esc is back at the hits.
            f.press(.enter)
            #expect(f.model { $0.list.items.map(\.title) } == ["Antarctica"], "screen:\n\(f.screen)")
            f.press(.escape)
            #expect(f.model { $0.list.items.count } == 2 && f.screen.contains("In the library: penguin"), "screen:\n\(f.screen)")

            // The line plays from where it is said.
            f.press(.down, .enter)
            try await f.until("playing from the line's time") { f.playerState.name == .playing && (f.model { $0.player.position } ?? 0) >= 12 }
            #expect((f.model { $0.player.position } ?? 99) < 15)
            f.press(.character("s"))
            try await f.until("stopped") { [.idle, .finished].contains(f.playerState.name) }
            f.press(.escape, .escape)
            #expect(f.model { $0.libraryQuery == nil && $0.list.items.map(\.title) == ["Penguin Radio"] }, "screen:\n\(f.screen)")

            // Words found nowhere: the empty state says so.
            f.press(.character("/"))
            f.type("albatross")
            f.press(.enter)
            #expect(f.screen.contains("albatross") && f.model { $0.list.items.isEmpty }, "screen:\n\(f.screen)")
        }
    }
}
