import Foundation
import Testing

@testable import PlayerCore

/// A request played to its own end is told once, at its `finished`; a stop, a failure, a skip
/// off the end or an item other than the last never is.
@Suite("Request end watch")
struct RequestEndWatchTests {
    static let a = Track(id: "a", url: URL(fileURLWithPath: "/m/a.flac"), kind: .file, duration: 10)
    static let b = Track(id: "b", url: URL(fileURLWithPath: "/m/b.flac"), kind: .file, duration: 10)

    static func state(_ state: PlayerState) -> PlayerUpdate { .state(state, audioTime: 0, now: .zero) }
    static func finished(_ track: Track) -> PlayerUpdate { .notice(.trackFinished(track), audioTime: 0) }

    func told(_ updates: [PlayerUpdate], last: String? = "b") -> [Int] {
        var watch = RequestEndWatch(lastItemID: last)
        return updates.enumerated().compactMap { i, update in watch.observe(update) ? i : nil }
    }

    @Test func theLastItemsEndThenFinishedIsTheEnd() {
        let updates = [
            Self.state(.playing(track: Self.a)), Self.finished(Self.a), Self.state(.playing(track: Self.b)), Self.finished(Self.b),
            Self.state(.finished),
        ]
        #expect(told(updates) == [4])
    }

    @Test func aSessionsClosingComesBetweenTheEndAndFinished() {
        let updates = [Self.state(.playing(track: Self.b)), Self.finished(Self.b), Self.state(.fadingOut(track: Self.b, targetDuration: 8)), Self.state(.finished)]
        #expect(told(updates) == [3])
    }

    @Test func aStopOrAFailureOrAnEarlierItemIsNoEnd() {
        // Stopped during the last item: its fade, then finished, with no end of the item.
        #expect(told([Self.state(.playing(track: Self.b)), Self.state(.fadingOut(track: Self.b, targetDuration: 1)), Self.state(.finished)]).isEmpty)
        #expect(told([Self.state(.playing(track: Self.b)), Self.state(.idle)]).isEmpty)
        // The first item ended, then the request stopped.
        #expect(told([Self.state(.playing(track: Self.a)), Self.finished(Self.a), Self.state(.finished)]).isEmpty)
        // The last item's end, then a failure of something that came after it.
        let failed = PlayerState.failed(error: PlaybackError(.fileNotFound), recoverable: false, resumePoint: nil)
        #expect(told([Self.finished(Self.b), Self.state(failed), Self.state(.finished)]).isEmpty)
        // No last item known: nothing is ever its end.
        #expect(told([Self.finished(Self.b), Self.state(.finished)], last: nil).isEmpty)
    }

    @Test func itIsToldOnceAndANewLastItemStartsOver() {
        var watch = RequestEndWatch(lastItemID: "a")
        var told: [Bool] = []
        told.append(watch.observe(Self.finished(Self.a)))
        // Items were added after the one that ended: that end is no longer the request's end.
        watch.expect(lastItemID: "b")
        told.append(watch.observe(Self.state(.finished)))
        told.append(watch.observe(Self.finished(Self.b)))
        told.append(watch.observe(Self.state(.finished)))
        // Told once.
        told.append(watch.observe(Self.state(.finished)))
        // Told the same last item again: nothing changes.
        told.append(watch.observe(Self.finished(Self.b)))
        watch.expect(lastItemID: "b")
        told.append(watch.observe(Self.state(.finished)))
        #expect(told == [false, false, false, true, false, false, true])
    }
}
