import Foundation

/// The level meter on Now Playing: each channel's RMS and peak of the audio last sent to the
/// output, in dBFS, with a meter's ballistics (an instant rise, a fall of `fallPerUpdate` dB per
/// redraw, a peak mark held for `peakHoldUpdates` redraws), so the bars move smoothly at 20
/// redraws a second even when a redraw finds no new block.
package struct LevelMeterViewState: Sendable, Equatable {
    /// The bottom of the scale: quieter than this is an empty bar.
    package static let floor = -60.0
    /// How far a bar falls per redraw (20 a second: 24 dB a second, a PPM's return).
    package static let fallPerUpdate = 1.2
    package static let peakHoldUpdates = 20

    /// One channel's bar.
    package struct Channel: Sendable, Equatable {
        /// dBFS, `floor` at most silent.
        package var rms: Double
        package var peak: Double
        /// The highest peak of the last `peakHoldUpdates` redraws.
        package var held: Double
        package var heldFor: Int

        package init(rms: Double, peak: Double, held: Double? = nil, heldFor: Int = 0) {
            self.rms = rms
            self.peak = peak
            self.held = held ?? peak
            self.heldFor = heldFor
        }

        /// The bar's length on the scale, 0 to 1.
        package var rmsFraction: Double { LevelMeterViewState.fraction(rms) }
        package var heldFraction: Double { LevelMeterViewState.fraction(held) }
        /// "−12 dB" for the held peak; "−∞" at the floor.
        package var heldText: String {
            held <= LevelMeterViewState.floor ? "−∞ dB" : String(format: "%.0f dB", held).replacingOccurrences(of: "-", with: "−")
        }
    }

    package var left: Channel
    package var right: Channel

    package init(left: Channel, right: Channel) {
        self.left = left
        self.right = right
    }

    /// Both bars empty.
    package static let silent = LevelMeterViewState(
        left: Channel(rms: floor, peak: floor), right: Channel(rms: floor, peak: floor))

    /// RMS and peak of each channel of interleaved stereo `samples`.
    package static func measure(_ samples: [Float]) -> LevelMeterViewState {
        var sum = (0.0, 0.0)
        var peak: (Float, Float) = (0, 0)
        var frames = 0
        var i = 0
        while i + 1 < samples.count {
            let l = samples[i], r = samples[i + 1]
            sum.0 += Double(l * l)
            sum.1 += Double(r * r)
            peak.0 = max(peak.0, abs(l))
            peak.1 = max(peak.1, abs(r))
            frames += 1
            i += 2
        }
        guard frames > 0 else { return .silent }
        func channel(_ squares: Double, _ peak: Float) -> Channel {
            Channel(rms: decibels((squares / Double(frames)).squareRoot()), peak: decibels(Double(peak)))
        }
        return LevelMeterViewState(left: channel(sum.0, peak.0), right: channel(sum.1, peak.1))
    }

    /// The meter after one redraw that measured `measured` (`.silent` when nothing new was sent,
    /// as while paused): bars rise at once and fall slowly; a peak mark holds, then falls.
    package func following(_ measured: LevelMeterViewState) -> LevelMeterViewState {
        func next(_ old: Channel, _ new: Channel) -> Channel {
            let rms = max(new.rms, old.rms - Self.fallPerUpdate)
            let peak = max(new.peak, old.peak - Self.fallPerUpdate)
            if new.peak >= old.held { return Channel(rms: rms, peak: peak, held: new.peak, heldFor: 0) }
            if old.heldFor < Self.peakHoldUpdates { return Channel(rms: rms, peak: peak, held: old.held, heldFor: old.heldFor + 1) }
            return Channel(rms: rms, peak: peak, held: max(peak, old.held - Self.fallPerUpdate), heldFor: old.heldFor)
        }
        return LevelMeterViewState(left: next(left, measured.left), right: next(right, measured.right))
    }

    /// What a drawing of the meter shows, finer than any bar drawn (60 cells in eighths, the
    /// peak mark's cell, the whole dB): a screen redraws only when it changes, so a steady level
    /// costs no redraws.
    package var displayKey: [Int] {
        func key(_ channel: Channel) -> [Int] {
            let bar = Int(channel.rmsFraction * 480)
            let mark = Int(channel.heldFraction * 60)
            return [bar, mark, Int(channel.held.rounded())]
        }
        return key(left) + key(right)
    }

    /// Everything has fallen to the floor: nothing left to animate.
    package var isAtRest: Bool {
        [left, right].allSatisfy { $0.rms <= Self.floor && $0.peak <= Self.floor && $0.held <= Self.floor }
    }

    static func decibels(_ amplitude: Double) -> Double {
        guard amplitude > 0 else { return floor }
        return max(floor, 20 * log10(amplitude))
    }

    static func fraction(_ decibels: Double) -> Double {
        min(1, max(0, (decibels - floor) / -floor))
    }
}
