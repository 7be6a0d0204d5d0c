import Foundation
import PlayerCore
import Testing

/// A live stream that drops while its buffer plays is asked for again at once, and the listener
/// hears nothing when it is back in time: the state stays `playing` (true), a flag says a reconnect
/// is under way, and only a buffer that runs dry first turns it into the visible countdown.
@Suite("Reconnects in the background")
struct BackgroundReconnectTests {
    let drop = PlaybackError(.connectionLost, underlying: "the live stream's body ended")

    @Test func aDropWhilePlayingReopensAtOnceAndStaysPlaying() throws {
        var d = try Driver.live()
        let effects = try d.send(.streamDropped(.a, cause: drop, at: PlayerTime(seconds: 10)))
        #expect(effects.withoutTimers == [.reopenConnection(.a), .reconnectingInBackground(true)])
        #expect(d.state == .playing(track: Fixture.live()))
        #expect(d.machine.isReconnectingInBackground)
        #expect(d.machine.connectionQuality(at: PlayerTime(seconds: 10)).reconnecting)
        #expect(d.machine.connectionQuality(at: PlayerTime(seconds: 10)).rating == .fair)
    }

    @Test func theFirstBytesOfTheNewConnectionEndIt_asAnAutomaticRecovery() throws {
        var d = try Driver.live()
        try d.send(.streamDropped(.a, cause: drop, at: PlayerTime(seconds: 10)))
        let effects = try d.send(.receiving(.a, at: PlayerTime(seconds: 10.3)))
        #expect(effects == [.reconnectingInBackground(false), .recovered(from: drop, by: .automaticRetry)])
        #expect(!d.machine.isReconnectingInBackground)
        #expect(!d.names.contains(.reconnecting))
        // Counted: one reconnect this hour, so the connection is fair, not good.
        let quality = d.machine.connectionQuality(at: PlayerTime(seconds: 11))
        #expect(quality.reconnectsLastHour == 1 && quality.stallsLastHour == 0 && !quality.reconnecting)
        #expect(quality.rating == .fair)
        // An hour later it is forgotten.
        #expect(d.machine.connectionQuality(at: PlayerTime(seconds: 10 + 3_601)).rating == .good)
    }

    @Test func aFailedReopenIsTriedAgainQuickly_thenTheBufferPlaysOut() throws {
        var d = try Driver.live()
        try d.send(.streamDropped(.a, cause: drop, at: PlayerTime(seconds: 10)))
        var now = 10.0
        let policy = BackoffPolicy.backgroundReconnect
        for attempt in 2...policy.maxAttempts {
            let refused = PlaybackError(.httpRetryable, httpStatus: 503)
            let effects = try d.send(.streamDropped(.a, cause: refused, at: PlayerTime(seconds: now + 0.1)))
            guard case .scheduleTimer(.backgroundReconnect(attempt), let at)? = effects.first else {
                Issue.record("attempt \(attempt): got \(effects)")
                return
            }
            let nominal = BackoffPolicy.backgroundReconnect.nominalDelay(forRetry: attempt - 1)
            #expect(at.seconds - (now + 0.1) >= nominal * 0.8 - 1e-9 && at.seconds - (now + 0.1) <= nominal * 1.2 + 1e-9)
            #expect(d.state.name == .playing)
            now = at.seconds
            #expect(try d.send(.timerFired(.backgroundReconnect(attempt: attempt), at: at)).withoutTimers == [.reopenConnection(.a)])
        }
        // The last reopen fails too: nothing more in the background, the buffer plays out.
        #expect(try d.send(.streamDropped(.a, cause: drop, at: PlayerTime(seconds: now + 0.1))).withoutTimers.isEmpty)
        #expect(d.state.name == .playing)
        #expect(d.machine.isReconnectingInBackground)
    }

    @Test func aBufferThatRunsDryFirstMakesItTheVisibleReconnect_countedOnce() throws {
        var d = try Driver.live()
        try d.send(.streamDropped(.a, cause: drop, at: PlayerTime(seconds: 10)))
        let effects = try d.send(.underrun(.a), at: 14)
        #expect(effects.first == .reconnectingInBackground(false))
        #expect(effects.contains(.unload(.a)))
        guard case .reconnecting(_, 1, _, let at?, let cause) = d.state else {
            Issue.record("expected the visible countdown, got \(d.state)")
            return
        }
        #expect(at.seconds > 14)
        #expect(cause == drop)
        #expect(!d.machine.isReconnectingInBackground)
        // One reconnect (begun in the background, heard now) and one stall (the gap).
        let quality = d.machine.connectionQuality(at: PlayerTime(seconds: 15))
        #expect(quality.reconnectsLastHour == 1)
        #expect(quality.stallsLastHour == 1)
    }

    @Test func aMountGoneAfterPlayingIsUnavailableForAWhile_notAWrongAddress() throws {
        var d = try Driver.live()
        try d.send(.streamDropped(.a, cause: drop, at: PlayerTime(seconds: 10)))
        try d.send(.streamDropped(.a, cause: PlaybackError(.httpNotFound, httpStatus: 404), at: PlayerTime(seconds: 10.1)))
        // The buffer runs dry: the visible reconnect rides it out instead of failing at once.
        try d.send(.underrun(.a), at: 11)
        guard case .reconnecting(_, _, _, _, let cause) = d.state else { Issue.record("got \(d.state)"); return }
        #expect(cause.code == .streamUnavailable && cause.httpStatus == 404)
    }

    @Test func aDeckThatFailsOnAReopensErrorReconnectsVisiblyWithTheDropAsItsCause() throws {
        var d = try Driver.live()
        try d.send(.streamDropped(.a, cause: drop, at: PlayerTime(seconds: 10)))
        try d.send(.streamDropped(.a, cause: PlaybackError(.httpNotFound, httpStatus: 404), at: PlayerTime(seconds: 10.1)))
        // The deck read the source's last failure (the 404, which alone would be final).
        try d.send(.errorOccurred(.a, PlaybackError(.httpNotFound, httpStatus: 404), at: PlayerTime(seconds: 11)))
        guard case .reconnecting(_, 1, _, _, let cause) = d.state else { Issue.record("got \(d.state)"); return }
        #expect(cause.code == .streamUnavailable)
    }

    @Test func offlineNothingIsTriedInTheBackground() throws {
        var d = try Driver.live()
        try d.send(.connectivityChanged(online: false, at: PlayerTime(seconds: 9)))
        // The source is given up: its deck reads the error once its buffer has played, and the
        // visible reconnect then waits for the network.
        #expect(try d.send(.streamDropped(.a, cause: drop, at: PlayerTime(seconds: 10))).withoutTimers == [.abandonConnection(.a, cause: drop)])
        #expect(!d.machine.isReconnectingInBackground)
        #expect(d.state.name == .playing)
    }

    @Test func aStopForgetsIt() throws {
        var d = try Driver.live()
        try d.send(.streamDropped(.a, cause: drop, at: PlayerTime(seconds: 10)))
        try d.send(.stop, at: 11)
        let effects = try d.send(.fadeOutCompleted, at: 11.5)
        #expect(effects.first == .reconnectingInBackground(false))
        #expect(!d.machine.isReconnectingInBackground)
        #expect(try d.send(.receiving(.a, at: PlayerTime(seconds: 12))).isEmpty)
    }

    @Test func aDropOfTheNextItemsLiveStreamGivesItsSourceUp() throws {
        var d = try Driver.playing(Fixture.file("a"), Fixture.live("next"))
        try d.send(.skip)
        guard case .preparingCrossfade = d.state else { Issue.record("got \(d.state)"); return }
        let effects = try d.send(.streamDropped(.b, cause: drop, at: PlayerTime(seconds: 23)))
        #expect(effects.withoutTimers == [.abandonConnection(.b, cause: drop)])
        #expect(!d.machine.isReconnectingInBackground)
    }

    @Test func anEpisodeIsNotReconnectedThisWay() throws {
        var d = try Driver.playing(Fixture.episode("e"))
        #expect(try d.send(.streamDropped(.a, cause: drop, at: PlayerTime(seconds: 10))).isEmpty)
        #expect(!d.machine.isReconnectingInBackground)
    }
}

@Suite("Connection quality")
struct ConnectionQualityTests {
    @Test(arguments: [
        (0, 0, false, 4.0, ConnectionQuality.Rating.good),
        (0, 0, false, nil, .good),
        (0, 0, false, 0.5, .fair),
        (0, 0, true, 4.0, .fair),
        (1, 0, false, 4.0, .fair),
        (0, 2, false, 4.0, .fair),
        (2, 1, false, 4.0, .poor),
        (0, 3, false, 4.0, .poor),
    ] as [(Int, Int, Bool, Double?, ConnectionQuality.Rating)])
    func rating(reconnects: Int, stalls: Int, reconnecting: Bool, buffered: Double?, expected: ConnectionQuality.Rating) {
        let quality = ConnectionQuality(
            bitrate: 128, bufferedSeconds: buffered, reconnectsLastHour: reconnects, stallsLastHour: stalls, reconnecting: reconnecting)
        #expect(quality.rating == expected)
    }

    @Test func incidentsAreCountedPerStreamOverTheLastHour() {
        var incidents = ConnectionIncidents()
        incidents.record(.reconnect, of: "a", at: PlayerTime(seconds: 0))
        incidents.record(.stall, of: "a", at: PlayerTime(seconds: 1_000))
        incidents.record(.stall, of: "b", at: PlayerTime(seconds: 1_000))
        #expect(incidents.count(.reconnect, of: "a", at: PlayerTime(seconds: 3_600)) == 1)
        #expect(incidents.count(.reconnect, of: "a", at: PlayerTime(seconds: 3_601)) == 0)
        #expect(incidents.count(.stall, of: "a", at: PlayerTime(seconds: 3_601)) == 1)
        #expect(incidents.count(.stall, of: "b", at: PlayerTime(seconds: 2_000)) == 1)
        #expect(incidents.count(.reconnect, of: "b", at: PlayerTime(seconds: 2_000)) == 0)
    }

    @Test func theRecordIsBounded() {
        var incidents = ConnectionIncidents()
        for second in 0..<(ConnectionIncidents.capacity + 50) {
            incidents.record(.stall, of: "a", at: PlayerTime(seconds: Double(second)))
        }
        #expect(incidents.count(.stall, of: "a", at: PlayerTime(seconds: 400)) == ConnectionIncidents.capacity)
    }

    @Test func aStallAbandonedWhilePlayingIsCounted() throws {
        var d = try Driver.live()
        try d.send(.stalled(.a, at: PlayerTime(seconds: 10)))
        try d.send(.timerFired(.stallCheck, at: PlayerTime(seconds: 10 + ResilienceDefaults.stallTimeout)))
        #expect(d.machine.connectionQuality(at: PlayerTime(seconds: 30)).stallsLastHour == 1)
    }

    @Test func aVisibleReconnectIsCountedOncePerRun() throws {
        var d = try Driver.reconnecting()
        let due = d.lastScheduledRetry!
        try d.send(.timerFired(.retry(attempt: 1), at: due.at))
        try d.send(.loadFailed(d.lastLoad!, PlaybackError(.connectionFailed), at: due.at))
        #expect(d.machine.connectionQuality(at: due.at).reconnectsLastHour == 1)
    }
}
