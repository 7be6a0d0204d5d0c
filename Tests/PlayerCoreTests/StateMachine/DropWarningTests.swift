import Foundation
import PlayerCore
import Testing

/// A stream that keeps dropping is told to the listener once: at its third drop within 30
/// minutes, heard or covered by the buffer, never for drops spread wider, never twice.
@Suite("Drop warning")
struct DropWarningTests {
    static func warnings(_ effects: [PlayerEffect]) -> [Int] {
        effects.compactMap { if case .warnKeepsDropping(_, let drops) = $0 { drops } else { nil } }
    }

    /// The live stream ends (a drop) at `seconds`, and the reconnect brings it back.
    static func dropAndRecover(_ d: inout Driver, at seconds: Double) throws -> [Int] {
        let dropped = try d.send(.trackEnded(.a, at: PlayerTime(seconds: seconds)), at: seconds)
        #expect(d.state.name == .reconnecting, "\(d.state)")
        let due = try #require(d.lastScheduledRetry)
        try d.send(.timerFired(.retry(attempt: due.attempt), at: due.at), at: due.at.seconds)
        try d.send(.loaded(d.lastLoad!, duration: nil), at: due.at.seconds)
        #expect(d.state.name == .playing, "\(d.state)")
        return warnings(dropped)
    }

    @Test func theThirdDropWithinTheWindowIsToldOnce() throws {
        #expect(DropWarning.drops == 3 && DropWarning.window == 1_800, "the numbers of the TonearmStationFailingRepeatedly alert")
        var d = try Driver.live()
        #expect(try Self.dropAndRecover(&d, at: 10).isEmpty)
        #expect(try Self.dropAndRecover(&d, at: 600).isEmpty)
        #expect(try Self.dropAndRecover(&d, at: 1_700) == [3])
        #expect(try Self.dropAndRecover(&d, at: 1_750).isEmpty, "told once")
    }

    @Test func dropsSpreadWiderThanTheWindowAreNotTold() throws {
        var d = try Driver.live()
        for at in [10.0, 1_000, 2_000, 3_000] {
            #expect(try Self.dropAndRecover(&d, at: at).isEmpty, "at \(at)")
        }
    }

    @Test func aDropTheBufferCoversCountsToo() throws {
        var d = try Driver.live()
        _ = try Self.dropAndRecover(&d, at: 10)
        _ = try Self.dropAndRecover(&d, at: 20)
        let limit = ResilienceDefaults.unchangedPlaylistLoads
        let effects = try d.send(.playlistUnchanged(.a, loads: limit, at: PlayerTime(seconds: 60)), at: 60)
        #expect(effects.contains(.reconnectingInBackground(true)), "\(effects)")
        #expect(Self.warnings(effects) == [3])
        #expect(d.state.name == .playing, "still playing: the buffer covers it")
    }
}
