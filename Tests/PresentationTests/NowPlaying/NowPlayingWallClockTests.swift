import Foundation
import PlayerCore
import Synchronization
import Testing

@testable import Presentation

/// Now Playing's countdowns run on the wall clock the front end passes in, between two updates
/// of the player: never on a clock of the model's own.
@Suite("Now Playing's wall clock")
struct NowPlayingWallClockTests {
    final class TestWallClock: Sendable {
        private let time = Mutex(Date(timeIntervalSince1970: 1_000_000))
        func advance(_ seconds: TimeInterval) { time.withLock { $0 += seconds } }
        var now: Date { time.withLock { $0 } }
    }

    @Test func theSleepCountdownAndThePlayersNowMoveWithThePassedClock() {
        let wall = TestWallClock()
        var model = NowPlayingModel(wallClock: { wall.now })
        let start = PlayerTime(seconds: 50)
        model.apply(.sleepTimer(SleepTimer(ending: .afterDuration, remaining: 600, runningSince: start), audioTime: 0, now: start))
        let track = Track(id: "t", url: URL(fileURLWithPath: "/tmp/t.flac"), kind: .file, title: "T")
        model.apply(.state(.playing(track: track), audioTime: 0, now: start))
        #expect(model.sleepRemaining == 600)
        #expect(model.now == start)
        wall.advance(90)
        #expect(model.sleepRemaining == 510)
        #expect(model.now == PlayerTime(seconds: 140))
        #expect(model.sleepText(language: .english)?.contains("8:30") == true, "\(model.sleepText(language: .english) ?? "nil")")
    }
}
