import Foundation
import PlayerCore
import Presentation
import TerminalUI
import Testing

@testable import TerminalApp

/// `a` on the Sessions tab starts a timer: it asks for a length, plays a timer session with a
/// bowl at its start and end (counting up when nothing is typed), and keeps the prompt open,
/// saying why, for a length it cannot read.
@Suite("Library timer")
struct LibraryTimerTests {
    static func sessionsTab() -> LibraryStateMachine {
        LibraryStateMachineTests.machine([], tab: .sessions)
    }

    static func request(_ effects: [LibraryEffect]) -> PlayRequest? {
        for effect in effects {
            if case .play(let playback) = effect, case .play(let request) = playback.replacement { return request }
        }
        return nil
    }

    @Test func aAsksForALengthAndEnterPlaysTheTimer() throws {
        var m = Self.sessionsTab()
        #expect(m.handle(.key(.character("a"))).isEmpty)
        #expect(m.model.prompt?.label == TerminalStrings.prompt(.timer, in: .english))
        LibraryStateMachineTests.type("20m", into: &m)
        let effects = m.handle(.key(.enter))
        let request = try #require(Self.request(effects))
        #expect(m.model.prompt == nil && m.model.nowPlayingOpen)
        #expect(request.items.count == 1)
        #expect(request.items[0].track.url == BuiltInSound.silence.url)
        #expect(request.items[0].track.title == "Timer 20:00")
        #expect(request.items[0].track.duration == 1_200)
        #expect(request.layers?.length == 1_200)
        #expect(request.layers?.bells?.url == BuiltInSound.bowl.url)
        #expect(request.layers?.bells?.schedule.cue(after: 0) == BellCue(at: 1_200, kind: .end))
        #expect(request.layers?.bed == nil)
    }

    @Test func enterAloneCountsUp() throws {
        var m = Self.sessionsTab()
        _ = m.handle(.key(.character("a")))
        let request = try #require(Self.request(m.handle(.key(.enter))))
        #expect(request.items[0].track.title == "Timer")
        #expect(request.items[0].track.duration == nil)
        #expect(request.layers?.length == nil)
        #expect(request.layers?.bells?.schedule.cue(after: 0, inclusive: true) == BellCue(at: 0, kind: .start))
    }

    @Test func aLengthItCannotReadKeepsThePromptOpenWithWhy() {
        var m = Self.sessionsTab()
        _ = m.handle(.key(.character("a")))
        LibraryStateMachineTests.type("20x", into: &m)
        #expect(m.handle(.key(.enter)).isEmpty)
        #expect(m.model.prompt?.label == TimerSessionError.notADuration("20x").message(in: .english))
        #expect(m.model.prompt?.text == "20x")
        #expect(!m.model.nowPlayingOpen)
        // Corrected, it plays.
        _ = m.handle(.key(.backspace))
        LibraryStateMachineTests.type("m", into: &m)
        #expect(Self.request(m.handle(.key(.enter)))?.layers?.length == 1_200)
    }

    @Test func theHintAndTheEmptyListOfferTheTimer() {
        let screen = LibraryScreen(tab: .sessions, list: ListScreenState<LibraryRow>.initial.startLoading().finishLoading(.success([])), language: .english)
        let text = screen.render(width: 100, height: 24).text
        #expect(text.contains("a Timer"))
        #expect(text.contains("[a] Start a timer"))
    }
}
