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
    @Suite("The station directory")
    struct Directory {
        /// A new listener finds stations without knowing an address: `/` on the empty list (or `f`
        /// anywhere) asks the directory, Enter plays a result and counts a click, `a` keeps it.
        @Test func theDirectoryIsSearchedPlayedFromAndKeptFrom() async throws {
            let stream = try TestHTTPServer { _ in .complete(status: 503, contentType: "text/plain", body: Data("down".utf8)) }
            defer { stream.stop() }
            let server = try DirectoryServer(streamBase: stream.baseURL)
            defer { server.stop() }
            let f = try await Fixture(directory: StationDirectory(
                configuration: .init(servers: [server.baseURL], cacheDirectory: nil), network: NetworkClient(breakers: nil)))
            f.controller.load()
            #expect(f.screen.contains("[f] Find stations"), "screen:\n\(f.screen)")
            f.press(.character("/"))
            #expect(f.screen.contains("Find stations (words of the name"))
            f.type("jazz country:DE")
            f.press(.enter)
            try await f.until("the results") { f.screen.contains("Jazz Radio Blues") && f.screen.contains("HLS Jazz") }
            #expect(f.screen.contains("◂ Directory: jazz country:DE"))
            #expect(f.screen.contains("MP3 128k · FR · jazz, blues"))
            #expect(server.searches.last?.uri.contains("countrycode=DE") == true)

            f.press(.character("a"))
            #expect(try f.library.store.stations().map(\.directoryID) == ["96062a7b-0601-11e8-ae97-52543be04c81"])
            #expect(f.screen.contains("✓ MP3 128k"))
            f.press(.enter)
            try await f.until("the click") { server.clicks == ["96062a7b-0601-11e8-ae97-52543be04c81"] }
            try await f.until("the stream was asked for") { stream.requests.contains { $0.path == "/blues" } }
            f.model { $0.nowPlayingOpen = false }

            // Back to the library's stations; `f` from another tab comes back to the Stations tab.
            f.press(.escape)
            #expect(f.screen.contains("Jazz Radio Blues") && !f.screen.contains("HLS Jazz"))
            f.press(.tab, .character("f"))
            #expect(f.model { $0.tab } == .stations)
            f.type("nothing-matches")
            f.press(.enter)
            try await f.until("the answer") { f.screen.contains("Directory: nothing-matches") && !f.screen.contains("Loading") }
            await f.controller.finish()
        }

        @Test func aDirectoryThatIsDownIsTheListsErrorWithTryAgain() async throws {
            let server = try DirectoryServer(failing: true)
            defer { server.stop() }
            let f = try await Fixture(directory: StationDirectory(
                configuration: .init(servers: [server.baseURL], cacheDirectory: nil), network: NetworkClient(clock: ImmediateClock(), breakers: nil)))
            f.controller.load()
            f.press(.character("f"))
            f.type("jazz")
            f.press(.enter)
            try await f.until("the error") { f.model { $0.list.error != nil } }
            #expect(f.model { $0.list.error?.code } == .httpRetryable)
            let asked = server.searches.count
            f.press(.character("r"))
            try await f.until("asked again") { server.searches.count > asked }
            #expect(f.model { $0.directoryQuery } == "jazz")
        }
    }
}
