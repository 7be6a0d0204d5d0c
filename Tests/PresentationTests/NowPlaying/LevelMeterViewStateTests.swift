import Foundation
import Testing

@testable import Presentation

/// The level meter's figures: RMS and peak per channel in dBFS, and the ballistics that make the
/// bars rise at once and fall slowly.
@Suite("Level meter")
struct LevelMeterViewStateTests {
    /// Left a full-scale sine, right the same at a tenth (−20 dB).
    static let sine: [Float] = (0..<4_800).flatMap { i -> [Float] in
        let s = Float(sin(2 * Double.pi * 1_000 * Double(i) / 48_000))
        return [s, s / 10]
    }

    @Test func aSineMeasuresItsPeakAndRMSPerChannel() {
        let meter = LevelMeterViewState.measure(Self.sine)
        #expect(abs(meter.left.peak - 0) < 0.01)
        #expect(abs(meter.left.rms - -3.01) < 0.05)
        #expect(abs(meter.right.peak - -20) < 0.01)
        #expect(abs(meter.right.rms - -23.01) < 0.05)
        #expect(meter.left.heldText == "0 dB" && meter.right.heldText == "−20 dB")
    }

    @Test func silenceAndNothingAreTheFloor() {
        #expect(LevelMeterViewState.measure([Float](repeating: 0, count: 960)) == .silent)
        #expect(LevelMeterViewState.measure([]) == .silent)
        #expect(LevelMeterViewState.silent.left.rmsFraction == 0 && LevelMeterViewState.silent.left.heldText == "−∞ dB")
        #expect(LevelMeterViewState.silent.isAtRest)
    }

    @Test func barsRiseAtOnceAndFallSlowly() {
        let loud = LevelMeterViewState.measure(Self.sine)
        let risen = LevelMeterViewState.silent.following(loud)
        #expect(risen.left.rms == loud.left.rms)
        let fallen = risen.following(.silent)
        #expect(abs(fallen.left.rms - (loud.left.rms - LevelMeterViewState.fallPerUpdate)) < 1e-9)
        #expect(!fallen.isAtRest)
    }

    @Test func thePeakMarkHoldsThenFallsToRest() {
        var meter = LevelMeterViewState.silent.following(.measure(Self.sine))
        for _ in 0..<LevelMeterViewState.peakHoldUpdates { meter = meter.following(.silent) }
        #expect(abs(meter.left.held - 0) < 0.01, "held for \(LevelMeterViewState.peakHoldUpdates) redraws")
        meter = meter.following(.silent)
        #expect(meter.left.held < -0.5, "then falls")
        for _ in 0..<100 { meter = meter.following(.silent) }
        #expect(meter.isAtRest)
    }

    @Test func aSteadyLevelShowsTheSameAndAChangeShowsDifferently() {
        let loud = LevelMeterViewState.measure(Self.sine)
        let once = LevelMeterViewState.silent.following(loud)
        #expect(once.following(loud).displayKey == once.displayKey, "a steady tone needs no redraw")
        #expect(once.following(.silent).displayKey != once.displayKey, "a falling bar does")
    }
}
