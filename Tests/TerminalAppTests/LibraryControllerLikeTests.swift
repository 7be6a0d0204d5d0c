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
    @Suite("History and favourites")
    struct Likes {
        /// Titles heard on a library station land in History; `l` on Now Playing likes the song
        /// playing, `l` in History takes the like back, and Favourites lists what is liked.
        @Test func heardTitlesAreKeptAndLikedFromNowPlayingAndHistory() async throws {
            let audio = try FFmpegFixture.make(
                ["-f", "lavfi", "-i", "sine=frequency=440:duration=20:sample_rate=44100", "-ac", "2", "-c:a", "libmp3lame", "-b:a", "128k"],
                fileName: "tone.mp3").get()
            let body = IcyBody.make(audio, metaint: 8_000, titles: ["Night Band - Slow Song"])
            let server = try TestHTTPServer { _ in
                TestHTTPServer.Response(
                    status: 200, headers: [("Content-Type", "audio/mpeg"), ("icy-name", "Fixture FM"), ("icy-metaint", "8000")],
                    body: [.bytes(body), .hold])
            }
            defer { server.stop() }
            let f = try await Fixture()
            _ = try f.library.store.addStation(name: "Night FM", url: server.url("/live"))
            f.controller.load()
            f.press(.enter)
            try await f.until("the title") { f.model { $0.player.metadata?.title } == "Slow Song" }
            try await f.until("the title in the history") { (try? f.library.store.history().first?.title) == "Slow Song" }
            #expect(try f.library.store.history().first?.station == "Night FM")
            f.press(.character("l"))
            #expect(try f.library.store.favourites().map(\.song) == ["Night Band – Slow Song"])
            #expect(f.screen.contains("♥ Liked"), "screen:\n\(f.screen)")
            await f.controller.finish()

            f.press(.escape)
            f.model { $0.nowPlayingOpen = false }
            f.press(.tab, .tab, .tab, .tab)
            #expect(f.model { $0.tab } == .history)
            #expect(f.screen.contains("♥ Night Band – Slow Song") && f.screen.contains("Night FM ·"), "screen:\n\(f.screen)")
            f.press(.character("l"))
            #expect(try f.library.store.favourites().isEmpty)
            #expect(!f.screen.contains("♥ Night Band"))
            f.press(.character("l"))
            f.press(.tab)
            #expect(f.model { $0.tab } == .favourites)
            #expect(f.screen.contains("♥ Night Band – Slow Song"))
            f.press(.character("l"))
            #expect(f.screen.contains("No favourites yet"))
        }
    }
}
