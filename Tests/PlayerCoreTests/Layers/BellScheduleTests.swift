import Foundation
import PlayerCore
import Testing

/// When bells ring on the session's clock: found one cue at a time, so an open-ended interval
/// schedule (a timer counting up) is never listed.
@Suite("Bell schedule")
struct BellScheduleTests {
    /// Every cue from the start on, as the state machine walks them (at most `limit`).
    static func walk(_ schedule: BellSchedule, limit: Int = 50) -> [BellCue] {
        var cues: [BellCue] = []
        var next = schedule.cue(after: 0, inclusive: true)
        while let cue = next, cues.count < limit {
            cues.append(cue)
            next = schedule.cue(after: cue.at)
        }
        return cues
    }

    @Test func anIntervalRingsFromTheStartBellToTheEndBell() {
        let schedule = BellSchedule(interval: 300, length: 1_200)
        #expect(Self.walk(schedule) == [
            BellCue(at: 0, kind: .start), BellCue(at: 300, kind: .interval), BellCue(at: 600, kind: .interval),
            BellCue(at: 900, kind: .interval), BellCue(at: 1_200, kind: .end),
        ])
        // A length between two intervals: the last interval bell, then the end bell.
        #expect(Self.walk(BellSchedule(interval: 300, length: 1_000)).map(\.at) == [0, 300, 600, 900, 1_000])
        // Without start and end bells, only the interval ones; one at the length is an interval bell.
        #expect(Self.walk(BellSchedule(interval: 300, start: false, end: false, length: 900)) == [
            BellCue(at: 300, kind: .interval), BellCue(at: 600, kind: .interval), BellCue(at: 900, kind: .interval),
        ])
    }

    @Test func listedTimesAreSortedWithoutDuplicatesAndBoundedByTheLength() {
        let schedule = BellSchedule(times: [1_800, 0, 1_500, 1_500, 3_300, 4_000, -5, .nan, .infinity], length: 3_300)
        #expect(schedule.times == [0, 1_500, 1_800, 3_300, 4_000])
        // A listed time at 0 is the start bell and one at the length the end bell: each rings once;
        // a time past the length never rings.
        #expect(Self.walk(schedule) == [
            BellCue(at: 0, kind: .start), BellCue(at: 1_500, kind: .interval), BellCue(at: 1_800, kind: .interval),
            BellCue(at: 3_300, kind: .end),
        ])
        #expect(Self.walk(BellSchedule(times: [25, 5], start: false, end: false, length: 30)).map(\.at) == [5, 25])
    }

    @Test func inclusiveFindsACueAtTheTimeItselfExclusiveTheOneAfter() {
        let schedule = BellSchedule(interval: 60, start: false, length: 300)
        #expect(schedule.cue(after: 120, inclusive: true) == BellCue(at: 120, kind: .interval))
        #expect(schedule.cue(after: 120) == BellCue(at: 180, kind: .interval))
        #expect(schedule.cue(after: 119.5) == BellCue(at: 120, kind: .interval))
        // Within a microsecond is the same bell (a clock counted in frames is not exact in seconds).
        #expect(schedule.cue(after: 120 - 1e-7) == BellCue(at: 180, kind: .interval))
        #expect(schedule.cue(after: 120 + 1e-7, inclusive: true) == BellCue(at: 120, kind: .interval))
        #expect(schedule.cue(after: 0, inclusive: true) == BellCue(at: 60, kind: .interval))
        // Nothing after the end bell.
        #expect(schedule.cue(after: 300, inclusive: true) == BellCue(at: 300, kind: .end))
        #expect(schedule.cue(after: 300) == nil)
        #expect(schedule.cue(after: 10_000, inclusive: true) == nil)
    }

    @Test func anOpenEndedIntervalGoesOnWithoutAnEndBell() {
        let schedule = BellSchedule(interval: 600, length: nil)
        #expect(Self.walk(schedule, limit: 4).map(\.at) == [0, 600, 1_200, 1_800])
        #expect(Self.walk(schedule, limit: 4).allSatisfy { $0.kind != .end })
        // A day in, still on the grid.
        #expect(schedule.cue(after: 86_400) == BellCue(at: 87_000, kind: .interval))
        #expect(schedule.cue(after: 86_400, inclusive: true) == BellCue(at: 86_400, kind: .interval))
        // Listed times with no length: every one rings, and then there is none.
        #expect(Self.walk(BellSchedule(times: [10, 20], length: nil)).map(\.at) == [0, 10, 20])
    }

    @Test func aScheduleWithNoBellsHasNoCue() {
        #expect(BellSchedule(start: false, end: false, length: 600).cue(after: 0, inclusive: true) == nil)
        #expect(BellSchedule(start: false, length: nil).cue(after: 0, inclusive: true) == nil)
        // An interval that is not a positive number is no interval.
        #expect(BellSchedule(interval: 0, start: false, end: false, length: 600).cue(after: 0, inclusive: true) == nil)
        #expect(BellSchedule(interval: -60, start: false, end: false, length: 600).interval == nil)
    }

    @Test func strikesFollowTheCueAtTheirSpacing() {
        let bells = LayerPlan.Bells(url: BuiltInSound.bowl.url, strikes: 3, strikeSpacing: 2.5, schedule: BellSchedule(length: 60))
        #expect(bells.strikeTimes(of: BellCue(at: 60, kind: .end)) == [60, 62.5, 65])
        // Out-of-range values are clamped, never trusted.
        let clamped = LayerPlan.Bells(url: BuiltInSound.bowl.url, level: 3, strikes: 9, strikeSpacing: -1, schedule: BellSchedule(length: nil))
        #expect(clamped.level == 1 && clamped.strikes == 5 && clamped.strikeSpacing == 0)
    }
}
