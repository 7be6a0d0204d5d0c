import Foundation
import PlayerCore
import Presentation
import Testing

/// What Now Playing and the line modes say about a session's layers, and what a timer asked for
/// wrongly is told, in both languages.
@Suite struct SessionLayersTextTests {
    static let timer = SessionLayersStatus(
        elapsed: 300.4, length: 1_200, bed: BedStatus(phase: .ducked, level: 0.151), nextBell: BellCue(at: 600, kind: .interval), strikesRung: 2)

    @Test func theClockTheNextBellAndTheBed() {
        let view = SessionLayersViewState(status: Self.timer, language: .english)
        #expect(view.clockText == "Elapsed 5:00 · 15:00 left")
        #expect(view.bellText == "Next bell in 5:00")
        #expect(view.bedText == "Bed: ducked under the voice 15%")
        #expect(view.lineText == "Elapsed 5:00 · 15:00 left · Next bell in 5:00 · Bed: ducked under the voice 15%")
        #expect(view.spokenText == "Elapsed 5:00. 15:00 left. Next bell in 5:00. Bed: ducked under the voice 15%.")
        let russian = SessionLayersViewState(status: Self.timer, language: .russian)
        #expect(russian.lineText == "Прошло 5:00 · осталось 15:00 · Следующий колокол через 5:00 · Фон: приглушён под голос 15%")
    }

    @Test func anOpenEndedTimerCountsUpAndTheEndBellIsNamed() {
        var status = SessionLayersStatus(elapsed: 61, length: nil, bed: nil, nextBell: BellCue(at: 600, kind: .interval))
        #expect(SessionLayersViewState(status: status, language: .english).clockText == "Elapsed 1:01 (open-ended)")
        #expect(SessionLayersViewState(status: status, language: .english).detailText == "Next bell in 8:59")
        status.length = 1_200
        status.nextBell = BellCue(at: 1_200, kind: .end)
        status.elapsed = 1_199.6
        // Rounded up: a bell that has not rung is never "in 0:00".
        #expect(SessionLayersViewState(status: status, language: .english).bellText == "End bell in 0:01")
        #expect(SessionLayersViewState(status: status, language: .russian).bellText == "Последний колокол через 0:01")
    }

    @Test func withoutBellsNothingIsSaidOfThemAndAfterTheLastOneThatNoneIsLeft() {
        let none = SessionLayersStatus(elapsed: 10, length: 60, bed: BedStatus(phase: .playing, level: 0.6), nextBell: nil)
        #expect(SessionLayersViewState(status: none, language: .english).bellText == nil)
        #expect(SessionLayersViewState(status: none, language: .english).detailText == "Bed: playing 60%")
        var rung = none
        rung.strikesRung = 3
        rung.bed = nil
        #expect(SessionLayersViewState(status: rung, language: .english).detailText == "No bells left")
    }

    @Test func aBellAsItSounds() {
        func text(_ kind: BellCue.Kind, skipped: Bool = false, _ language: Language = .english) -> String {
            SessionLayersViewState.bellText(
                BellStrike(cue: BellCue(at: 300, kind: kind), strike: 1, sessionTime: 300, skipped: skipped), language: language)
        }
        #expect(text(.start) == "Start bell")
        #expect(text(.interval) == "Bell at 5:00")
        #expect(text(.end) == "End bell at 5:00")
        #expect(text(.interval, skipped: true) == "Bell at 5:00 skipped by a seek")
        #expect(text(.interval, .russian) == "Колокол на 5:00")
    }

    @Test func nowPlayingKeepsTheLastLayersUntilTheSessionIsOver() {
        var model = NowPlayingModel()
        #expect(model.layersView(language: .english) == nil)
        model.apply(.layers(Self.timer, audioTime: 300))
        #expect(model.layersView(language: .english)?.bellText == "Next bell in 5:00")
        model.apply(.layers(nil, audioTime: 1_210))
        #expect(model.layersView(language: .english) == nil)
    }

    @Test func aTimerIsTitledByItsLength() {
        #expect(TimerTexts.title(length: 1_200, in: .english) == "Timer 20:00")
        #expect(TimerTexts.title(length: nil, in: .english) == "Timer")
        #expect(TimerTexts.title(length: 5_400, in: .russian) == "Таймер 1:30:00")
    }

    @Test func aTimerAskedForWronglyIsToldWhatToWriteInstead() {
        #expect(
            TimerSessionError.notADuration("20x").message(in: .english)
                == "“20x” is not a duration: write 20m, 90s, 1h30m, 1:30:00 or seconds.")
        #expect(
            TimerSessionError.bellAfterEnd(1_500, length: 1_200).message(in: .english)
                == "A bell at 25:00 comes after the timer ends at 20:00, so it would never ring.")
        #expect(
            TimerSessionError.intervalTooShort(0.5).message(in: .russian) == "Колокола каждые 0.5 с — слишком часто: интервал не меньше 1 с.")
        #expect(TimerSessionError.volumeOutOfRange(.bed, 1.5).message(in: .english).hasPrefix("The bed volume 1.5 is out of range"))
        // What was typed is one short line, whatever it held.
        #expect(!TimerSessionError.notADuration("a\nb\u{1B}[2J").message(in: .english).contains("\n"))
        let every: [TimerSessionError] = [
            .notADuration("x"), .longerThanADay(90_000), .lengthTooShort, .lengthAndOpenEnded, .intervalAndTimes, .intervalTooShort(1),
            .bellAfterEnd(2, length: 1), .tooManyBells(1_000), .strikesOutOfRange(9), .volumeOutOfRange(.bell, 2), .volumeOutOfRange(.bed, 2),
            .noSound(.bell), .noSound(.bed), .missingFile(.bell, "/x"), .missingFile(.bed, "/x"),
        ]
        for error in every {
            for language in Language.allCases {
                // A key missing from the catalog would show as the key itself.
                #expect(!error.message(in: language).hasPrefix("timer.error."), "\(error) in \(language)")
            }
            #expect(error.message(in: .english) != error.message(in: .russian))
        }
    }
}
