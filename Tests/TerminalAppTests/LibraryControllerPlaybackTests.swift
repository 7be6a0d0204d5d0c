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
    @Suite("Playback")
    struct Playback {
        /// Enter plays, space pauses and resumes through the shared command mapping, Enter on another
        /// session replaces what plays without the player passing through idle, and leaving stops.
        @Test func sessionsPlayPauseAndReplaceEachOther() async throws {
            let f = try await Fixture()
            try f.addSession("Morning")
            try f.addSession("Evening")
            f.controller.load()
            f.press(.tab, .tab, .tab)
            let first = f.model { $0.list.items.first?.title }
            f.press(.enter)
            try await f.until("the first session plays") { f.playerState.name == .playing }
            #expect(f.playerState.currentTrack?.title == "\(first ?? "") stage")
            #expect(f.screen.contains("\(first ?? "") stage"))
            f.press(.character(" "))
            try await f.until("paused") { f.playerState.name == .paused }
            f.press(.character(" "))
            try await f.until("playing again") { f.playerState.name == .playing }

            let before = f.states.names.withLock { $0.count }
            f.press(.escape, .down, .enter)
            let second = first == "Morning" ? "Evening" : "Morning"
            try await f.until("the second session plays") {
                f.playerState.name == .playing && f.playerState.currentTrack?.title == "\(second) stage"
            }
            let during = f.states.names.withLock { Array($0.dropFirst(before)) }
            #expect(during.contains(.fadingOut) && during.contains(.preparing), "\(during)")
            #expect(!during.contains(.idle) && !during.contains(.finished), "\(during)")

            f.press(.character("q"))
            #expect(f.controller.isQuitting)
            await f.controller.finish()
        }
    }
}
