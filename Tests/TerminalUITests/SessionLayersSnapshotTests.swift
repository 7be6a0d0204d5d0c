import Foundation
import PlayerCore
import Presentation
import PresentationFixtures
import SnapshotTesting
import Testing

@testable import TerminalUI

/// A session with layers on Now Playing (a 20-minute timer with a bed, five minutes in), and the
/// same said by plain mode: the clock and what is left, the next bell, the bed.
@Suite("Session layers on Now Playing")
struct SessionLayersSnapshotTests {
    static let status = SessionLayersStatus(
        elapsed: 300.4, length: 1_200, bed: BedStatus(phase: .playing, level: 0.6), nextBell: BellCue(at: 600, kind: .interval),
        strikesRung: 2)

    static func timerTrack(_ language: Language) -> Track {
        let title = TimerTexts.title(length: 1_200, in: language)
        return Track(
            id: "timer#1", url: BuiltInSound.silence.url, kind: .file, title: title, album: title, duration: 1_200,
            loop: SourceLoop(.seconds(1_200)))
    }

    static func screen(_ language: Language, status: SessionLayersStatus = status) -> NowPlayingScreen {
        var context = Samples.context(language)
        context.position = status.elapsed
        context.duration = 1_200
        let view = NowPlayingViewState(state: .playing(track: timerTrack(language)), context: context)
        return NowPlayingScreen(view: view, language: language, layers: SessionLayersViewState(status: status, language: language))
    }

    @Test(arguments: [Language.english, .russian])
    func aTimerShowsItsClockItsNextBellAndItsBed(language: Language) {
        for (width, height) in NowPlayingSnapshotTests.sizes {
            let text = Self.screen(language).render(width: width, height: height).text
            #expect(text.contains(language == .english ? "Elapsed 5:00 · 15:00 left" : "Прошло 5:00 · осталось 15:00"))
            #expect(text.contains(language == .english ? "Next bell in 5:00 · Bed: playing 60%" : "Следующий колокол через 5:00 · Фон: звучит 60%"))
            assertSnapshot(of: text, as: .lines, named: "timer-\(language.rawValue)-\(width)x\(height)", testName: "nowPlaying")
        }
    }

    @Test func anOpenEndedTimerWithoutABedShowsOnlyWhatItHas() {
        let status = SessionLayersStatus(elapsed: 4_000, length: nil, bed: nil, nextBell: BellCue(at: 4_200, kind: .interval), strikesRung: 7)
        let text = Self.screen(.english, status: status).render(width: 80, height: 24).text
        #expect(text.contains("Elapsed 1:06:40 (open-ended)"))
        #expect(text.contains("Next bell in 3:20"))
        #expect(!text.contains("Bed:"))
    }

    @Test func withoutLayersNothingOfThemShows() {
        var screen = Self.screen(.english)
        screen.layers = nil
        let text = screen.render(width: 80, height: 24).text
        #expect(!text.contains("Elapsed") && !text.contains("bell"))
    }

    @Test func plainModeSaysTheLayersWithTheStateAndWithEachBell() {
        var announcer = PlainAnnouncer(language: .english)
        let layers = SessionLayersViewState(status: Self.status, language: .english)
        let view = Self.screen(.english).view
        let lines = announcer.lines(for: view, layers: layers)
        #expect(lines.count == 2)
        #expect(lines.last == "Elapsed 5:00. 15:00 left. Next bell in 5:00. Bed: playing 60%.")
        // The same state again says nothing, layers or not.
        #expect(announcer.lines(for: view, layers: layers).isEmpty)
        let bell = BellStrike(cue: BellCue(at: 300, kind: .interval), strike: 1, sessionTime: 300)
        #expect(
            announcer.lines(forBell: bell, layers: layers) == ["Bell at 5:00. Elapsed 5:00. 15:00 left. Next bell in 5:00. Bed: playing 60%."])
        #expect(announcer.lines(forBell: bell, layers: nil) == ["Bell at 5:00."])
    }
}
