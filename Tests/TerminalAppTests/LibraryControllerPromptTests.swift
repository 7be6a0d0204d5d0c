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
    @Suite("Adding from the prompt")
    struct Prompt {
        @Test func anEmptyLibraryAddsAStationFromThePrompt() async throws {
            let f = try await Fixture()
            f.controller.load()
            #expect(f.screen.contains("No stations yet"))
            f.press(.character("a"))
            f.type("Night Jazz http://127.0.0.1:9/jazz")
            f.press(.enter)
            try await f.until("the station is in the library") { (try? f.library.store.stations().count) == 1 }
            try await f.until("the list shows it") { f.screen.contains("Night Jazz") }
            #expect(try f.library.store.stations().first?.url == URL(string: "http://127.0.0.1:9/jazz"))
        }

        @Test func aStationWithoutAnAddressIsRefusedWithAnAlert() async throws {
            let f = try await Fixture()
            f.controller.load()
            f.press(.character("a"))
            f.type("justaname")
            f.press(.enter)
            try await f.until("the alert") { f.model { $0.alert != nil } }
            #expect(try f.library.store.stations().isEmpty)
            f.press(.enter)
            #expect(f.model { $0.alert == nil })
        }
    }
}
