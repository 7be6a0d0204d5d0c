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
    @Suite("Refreshing podcasts")
    struct Podcasts {
        /// `R` on the Podcasts tab refreshes every feed: the rows stay while it loads, then show the
        /// new episodes; a feed that failed is an alert. `R` elsewhere fetches nothing; `?` lists it.
        @Test func capitalRRefreshesEveryPodcastFromThePodcastsTab() async throws {
            let body = Data(
                """
                <?xml version="1.0"?><rss version="2.0"><channel><title>Rivers</title>
                <item><guid>r1</guid><title>Source</title><enclosure url="https://cdn.example.org/r1.mp3"/></item>
                <item><guid>r2</guid><title>Delta</title><enclosure url="https://cdn.example.org/r2.mp3"/></item>
                </channel></rss>
                """.utf8)
            // The feeds are answered once the test has seen the refresh under way.
            let gate = Gate()
            let server = try TestHTTPServer { request in
                gate.wait()
                return request.path == "/rivers"
                    ? .complete(contentType: "application/rss+xml", body: body) : .complete(status: 404, contentType: "text/plain", body: Data())
            }
            defer { server.stop() }
            let f = try await Fixture()
            _ = try f.library.store.addPodcast(feedURL: server.url("/rivers"), feed: PodcastFeed(title: "Rivers"), validators: .none)
            _ = try f.library.store.addPodcast(feedURL: server.url("/gone"), feed: PodcastFeed(title: "Lakes"), validators: .none)
            f.controller.load()
            f.press(.character("R"))
            #expect(f.model { !$0.list.isLoading }, "R on the Stations tab refreshes nothing")
            f.press(.tab)
            #expect(f.screen.contains("0/0"))
            f.press(.character("R"))
            #expect(f.model { $0.list.isLoading && $0.list.items.count == 2 })
            #expect(f.screen.contains("Loading"), "screen:\n\(f.screen)")
            f.press(.character("R"))
            gate.open()
            try await f.until("the refresh's alert") { f.model { $0.alert != nil } }
            #expect(f.model { $0.alert?.code } == .httpNotFound)
            #expect(f.model { !$0.list.isLoading })
            // One batch, though R was pressed twice while it ran.
            #expect(server.requests.map(\.path).sorted() == ["/gone", "/rivers"])
            f.press(.enter)
            #expect(f.screen.contains("2/2"), "screen:\n\(f.screen)")
            f.press(.character("?"))
            #expect(f.screen.contains("R") && f.screen.contains("Refresh all podcasts"), "screen:\n\(f.screen)")
        }
    }
}
