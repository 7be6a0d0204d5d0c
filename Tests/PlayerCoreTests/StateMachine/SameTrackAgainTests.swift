import Foundation
import PlayerCore
import Testing

/// The same track twice in a row (a playlist that repeats an entry, a queue edited to play the
/// current song again): a track never crossfades into itself, since no state could tell the two
/// apart, so it plays again after it ends, or at once on a skip, and nothing is refused.
@Suite("The same track twice in a row")
struct SameTrackAgainTests {
    @Test func itPlaysAgainAfterItsEndWithoutACrossfade() throws {
        var d = try Driver.playing(Fixture.stage1, Fixture.stage1)
        let preload = try d.send(.positionChanged(.a, position: 590))
        #expect(d.state == .playing(track: Fixture.stage1))
        #expect(preload.withoutTimers.isEmpty)
        let ended = try d.send(.trackEnded(.a, at: .zero))
        #expect(d.state == .preparing(track: Fixture.stage1))
        #expect(ended.contains(.trackFinished(Fixture.stage1)))
        try d.send(.loaded(d.lastLoad!, duration: 600))
        #expect(d.state == .playing(track: Fixture.stage1))
        #expect(d.machine.currentItemIndex == 1)
    }

    @Test func aSkipStartsItAgainAtOnce() throws {
        var d = try Driver.playing(Fixture.stage1, Fixture.stage1, Fixture.stage2)
        try d.send(.positionChanged(.a, position: 100))
        let out = try d.send(.skip)
        #expect(out.withoutTimers == [.seek(.a, to: 0)])
        #expect(d.state == .playing(track: Fixture.stage1))
        #expect(d.machine.currentItemIndex == 1)
    }

    @Test func aQueueEditedToRepeatTheCurrentTrackDropsTheOtherNext() throws {
        var d = try UpcomingTests.preloading()
        let out = try d.send(UpcomingTests.upcoming(Fixture.stage1))
        #expect(d.state == .playing(track: Fixture.stage1))
        #expect(out.withoutTimers == [.unload(.b)])
    }
}
