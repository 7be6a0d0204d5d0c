import Foundation
import Library
import PlayerCore
import TestProcesses
import Testing

@testable import TerminalApp

extension LibraryControllerTests {
    /// The library screen syncs with other devices by itself when an account is set up: after `R`
    /// refreshes the podcasts, and when an episode stops.
    @Suite("Syncing from the library screen")
    struct Sync {
        @Test func aRefreshAndAStoppedEpisodeAreSyncedWithoutBeingAsked() async throws {
            let sync = try GpodderServer()
            defer { sync.stop() }
            let audio = PCMWAV.data(frames: 48_000 * 30, left: { Int16(truncatingIfNeeded: $0 % 3_000) }, right: { _ in 0 })
            let feeds = try TestHTTPServer { request in
                guard request.path == "/show" else { return .file(audio, for: request, contentType: "audio/wav") }
                let xml = """
                    <?xml version="1.0"?><rss version="2.0"><channel><title>Shared</title>
                    <item><guid>s1</guid><title>Only</title><enclosure url="/s1.wav" type="audio/wav"/></item></channel></rss>
                    """
                return .complete(contentType: "application/rss+xml", body: Data(xml.utf8))
            }
            defer { feeds.stop() }
            let f = try await Fixture(syncPassword: sync.password)
            _ = try await f.library.podcasts.add(feedURL: feeds.url("/show"))
            try f.library.store.setUpSync(server: sync.baseURL, username: sync.username, device: "screen")
            f.controller.load()
            f.press(.tab)
            f.press(.character("R"))
            try await f.until("the subscription on the server") { sync.subscriptions == [feeds.url("/show").absoluteString] }
            #expect(sync.devices.keys.contains("screen"))

            // Into the podcast, play its episode, stop it: its place goes to the server.
            f.press(.enter)
            try await f.until("the episode list") { f.screen.contains("Only") }
            f.press(.enter)
            try await f.until("playing") { f.playerState.name == .playing }
            try await f.until("some listening") { f.model { $0.player.position ?? 0 } >= 1 }
            f.press(.character("s"))
            try await f.until("the play action on the server") { sync.actions.contains { $0["action"] as? String == "play" } }
            let play = try #require(sync.actions.last { $0["action"] as? String == "play" })
            #expect(play["device"] as? String == "screen" && (play["position"] as? Int ?? 0) >= 1, "\(play)")
        }
    }
}
