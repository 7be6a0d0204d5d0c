import Foundation
import PlayerCore
import Testing

@testable import MPRIS

/// A session's layers in MPRIS: whole seconds on its clock in `tonearm:` Metadata keys, and a
/// timer's length and position as its one stage's.
@Suite("MPRIS session layers")
struct MPRISLayersTests {
    static let timer = Track(
        id: "Timer 20:00#1", url: BuiltInSound.silence.url, kind: .file, title: "Timer 20:00", album: "Timer 20:00", duration: 1_200,
        loop: SourceLoop(.seconds(1_200)))
    static let openEnded = Track(id: "Timer#1", url: BuiltInSound.silence.url, kind: .file, title: "Timer", album: "Timer")

    @Test func aTimerHasItsLengthAndItsPosition() {
        let state = MPRISState(state: .playing(track: Self.timer), position: 300.5, duration: 1_200)
        #expect(state.lengthMicroseconds == 1_200_000_000)
        #expect(state.positionMicroseconds == 300_500_000)
        #expect(state.canSeek && state.status == .playing)
        // Counting up: no length, and the position goes on.
        let open = MPRISState(state: .playing(track: Self.openEnded), position: 4_000, duration: nil)
        #expect(open.lengthMicroseconds == nil)
        #expect(open.positionMicroseconds == 4_000_000_000)
    }

    @Test func theLayersAreInTheMetadata() {
        let status = SessionLayersStatus(
            elapsed: 300.4, length: 1_200, bed: BedStatus(phase: .ducked, level: 0.15), nextBell: BellCue(at: 600, kind: .interval), strikesRung: 1)
        let layers = MPRISState(state: .playing(track: Self.timer), position: 300.4, duration: 1_200, layers: status).layers
        #expect(layers == MPRISState.Layers(status))
        #expect(layers?.elapsed == 300)
        #expect(layers?.remaining == 900)
        #expect(layers?.nextBellIn == 300)
        #expect(layers?.nextBell == "interval")
        #expect(layers?.bed == "ducked")
        let open = MPRISState.Layers(SessionLayersStatus(elapsed: 61, length: nil, bed: nil, nextBell: nil, strikesRung: 4))
        #expect(open.remaining == nil && open.nextBellIn == nil && open.nextBell == nil && open.bed == nil)
        #expect(MPRISState(state: .playing(track: Self.timer)).layers == nil)
    }

    @Test func aChangeOfTheLayersChangesTheMetadataOnly() {
        func state(_ elapsed: Double, bed: BedStatus.Phase = .playing) -> MPRISState {
            let status = SessionLayersStatus(
                elapsed: elapsed, length: 1_200, bed: BedStatus(phase: bed, level: 0.6), nextBell: BellCue(at: 600, kind: .interval))
            return MPRISState(state: .playing(track: Self.timer), position: elapsed, duration: 1_200, layers: status)
        }
        #expect(state(301).changedProperties(since: state(300)) == ["Metadata"])
        #expect(state(300, bed: .ducked).changedProperties(since: state(300)) == ["Metadata"])
        #expect(state(300.5).changedProperties(since: state(300.2)).isEmpty)
    }
}
