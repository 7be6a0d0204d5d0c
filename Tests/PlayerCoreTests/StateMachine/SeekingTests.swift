import Foundation
import PlayerCore
import Testing

/// A seek in a network episode is a state of its own until audio from the target plays; a failed
/// seek is a typed, non-fatal error that goes back to where the listener was.
@Suite("Seeking")
struct SeekingTests {
    static let episode = Fixture.episode("ep", duration: 600)

    static func playingEpisode(at position: Double = 12) throws -> Driver {
        var d = try Driver.playing(episode)
        try d.send(.positionChanged(.a, position: position))
        return d
    }

    @Test func aNetworkSeekWaitsInSeekingUntilAudioFromTheTargetPlays() throws {
        var d = try Self.playingEpisode()
        let effects = try d.send(.seek(to: 300), at: 20)
        #expect(d.state == .seeking(track: Self.episode, from: 12, to: 300))
        #expect(effects.contains(.seek(.a, to: 300)))
        // A report at the target itself is only the jump.
        try d.send(.positionChanged(.a, position: 300))
        #expect(d.state.name == .seeking)
        try d.send(.positionChanged(.a, position: 300.1))
        #expect(d.state == .playing(track: Self.episode))
    }

    /// A backward seek: a position report sent before the jump, arriving after it, is not the
    /// target playing.
    @Test func aLateReportFromBeforeTheJumpIsNotTheTargetPlaying() throws {
        var d = try Self.playingEpisode(at: 200)
        try d.send(.seek(to: 30), at: 20)
        try d.send(.positionChanged(.a, position: 200.1))
        #expect(d.state == .seeking(track: Self.episode, from: 200, to: 30))
        try d.send(.positionChanged(.a, position: 30.2))
        #expect(d.state.name == .playing)
    }

    @Test func aLocalSeekIsImmediate() throws {
        var d = try Driver.playing(Fixture.stage1)
        try d.send(.seek(to: 300))
        #expect(d.state == .playing(track: Fixture.stage1))
    }

    @Test func aRefillAfterTheJumpIsTheDataArriving() throws {
        var d = try Self.playingEpisode()
        try d.send(.seek(to: 300), at: 20)
        try d.send(.underrun(.a))
        #expect(d.state.name == .seeking, "the wait is the seek's, not a buffering")
        try d.send(.refilled(.a))
        #expect(d.state.name == .playing)
    }

    @Test func aSecondSeekKeepsWhereTheListenerWas() throws {
        var d = try Self.playingEpisode()
        try d.send(.seek(to: 300), at: 20)
        try d.send(.seek(to: 450), at: 21)
        #expect(d.state == .seeking(track: Self.episode, from: 12, to: 450))
    }

    @Test func aFailedSeekIsATypedErrorAndPlaysOnFromTheOldPosition() throws {
        var d = try Self.playingEpisode()
        try d.send(.seek(to: 300), at: 20)
        let effects = try d.send(.errorOccurred(.a, PlaybackError(.httpNotFound, httpStatus: 416), at: PlayerTime(seconds: 21)), at: 21)
        let reported = effects.compactMap { if case .reportNonFatal(let e) = $0 { e } else { nil } }
        #expect(reported.map(\.code) == [.seekFailed])
        #expect(reported.first?.httpStatus == 416)
        #expect(effects.contains { if case .load(_, _, _, let from) = $0 { from == 12 } else { false } }, "\(effects)")
        #expect(d.state.name == .preparing)
        try d.send(.loaded(d.lastLoad!, duration: 600))
        #expect(d.state == .playing(track: Self.episode))
        #expect(d.machine.currentPosition == 12)
    }

    @Test func dataThatNeverComesEndsTheSeekAfterTheBufferingTimeout() throws {
        var d = try Self.playingEpisode()
        let effects = try d.send(.seek(to: 300), at: 20)
        let deadline = effects.compactMap { if case .scheduleTimer(.underrunTimeout, let at) = $0 { at.seconds } else { nil } }
        #expect(deadline == [20 + ResilienceDefaults.bufferingTimeout])
        let fired = try d.send(.timerFired(.underrunTimeout, at: PlayerTime(seconds: deadline.first ?? 0)), at: deadline.first ?? 0)
        #expect(fired.contains { if case .reportNonFatal(let e) = $0 { e.code == .seekFailed } else { false } })
        #expect(d.state.name == .preparing)
    }

    @Test func pausingWhileSeekingPausesAtTheTarget() throws {
        var d = try Self.playingEpisode()
        try d.send(.seek(to: 300), at: 20)
        try d.send(.pause)
        #expect(d.state == .paused(track: Self.episode, position: 300))
    }

    @Test func seekingIsAStateOfTheDocumentedTable() {
        let from = Set(PlayerState.transitionTable.filter { $0.from == .seeking }.map(\.to))
        #expect(from == [.seeking, .playing, .paused, .idle, .preparing, .reconnecting, .finished, .failed])
        #expect(PlayerState.seeking(track: Self.episode, from: 12, to: 300).allowedActions == [.pause, .stop, .seek])
    }
}
