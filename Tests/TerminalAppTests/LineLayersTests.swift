import Foundation
import PlayerCore
import Presentation
import TerminalUI
import Testing

@testable import TerminalApp

/// The line interface's word on a session's layers: each bell with where the session is, as a line
/// or as sentences for a screen reader.
@Suite struct LineLayersTests {
    static let status = SessionLayersStatus(
        elapsed: 300, length: 1_200, bed: BedStatus(phase: .playing, level: 0.6), nextBell: BellCue(at: 600, kind: .interval), strikesRung: 2)
    static let bell = BellStrike(cue: BellCue(at: 300, kind: .interval), strike: 1, sessionTime: 300)

    static func lines(_ style: LinePlayback.Style, layers: SessionLayersStatus?, strike: BellStrike = bell) -> [String] {
        LinePlayback.bellLines(
            strike, layers: layers.map { SessionLayersViewState(status: $0, language: .english) }, style: style, language: .english,
            announcer: PlainAnnouncer(language: .english))
    }

    @Test func aBellIsOneLineWithTheClockTheNextBellAndTheBed() {
        #expect(Self.lines(.lines, layers: Self.status) == ["Bell at 5:00 · Elapsed 5:00 · 15:00 left · Next bell in 5:00 · Bed: playing 60%"])
        #expect(Self.lines(.plain, layers: Self.status) == ["Bell at 5:00. Elapsed 5:00. 15:00 left. Next bell in 5:00. Bed: playing 60%."])
        // The session is over by the time it is said: the bell alone.
        #expect(Self.lines(.lines, layers: nil) == ["Bell at 5:00"])
        let skipped = BellStrike(cue: BellCue(at: 300, kind: .interval), strike: 1, sessionTime: 420, skipped: true)
        #expect(Self.lines(.lines, layers: nil, strike: skipped) == ["Bell at 5:00 skipped by a seek"])
    }

    @Test func theLayersFollowOnlyStatesWhereAListenerStays() {
        #expect(LinePlayback.lastingStates == [.playing, .paused, .crossfadePaused])
    }
}
