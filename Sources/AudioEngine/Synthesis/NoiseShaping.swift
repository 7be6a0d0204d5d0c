import Foundation
import Media

/// The colours of noise a bed can be, as filters that shape white noise one sample at a time.
enum NoiseColour: Sendable {
    /// Power falling 6 dB per octave (1/f²): a deep rumble like distant surf.
    case brown
    /// Power falling 3 dB per octave (1/f): equal energy in every octave, like steady rain.
    case pink
}

/// Turns white noise into `colour`, then removes what lies below hearing. One per channel.
///
/// Every filter here forgets its past within a fraction of a second (the slowest pole has a time
/// constant under 20 ms), which is what lets a generator land a seek on the same noise that
/// playing from the start would have reached.
struct NoiseShaper {
    let colour: NoiseColour

    /// The bed's RMS level: -20 dBFS, a bed under speech, with room for its peaks (about 4 × RMS).
    static let targetRMS = pow(10, -20.0 / 20)

    /// Brown: a leaky integrator, y = leak · y + w. The leak turns the integrator's endless
    /// random walk into 6 dB/octave down to about 10 Hz, flat below; without it the state would
    /// wander off and lose precision.
    static let brownLeak = 1 - 2 * Double.pi * 10 / Double(AudioFormat.sampleRate)

    /// Pink: Paul Kellet's "refined" filter (music-dsp, 1999), six first-order sections whose sum
    /// falls 3 dB/octave within ±0.05 dB from 9 Hz to the top of the band (designed at 44.1 kHz;
    /// at 48 kHz its corners move up by 9 %, a shift along the slope, not a change of it).
    static let pinkPoles: [6 of Double] = [0.99886, 0.99332, 0.96900, 0.86650, 0.55000, -0.7616]
    static let pinkWeights: [6 of Double] = [0.0555179, 0.0750759, 0.1538520, 0.3104856, 0.5329522, -0.0168980]
    /// Kellet's direct path, and the one-sample-late path he adds to flatten the top octave.
    static let pinkDirect = 0.5362
    static let pinkDelayed = 0.115926

    /// The DC blocker's corner: 20 Hz, the bottom of hearing. Below it a bed only moves the
    /// speaker cone; and a first-order high-pass has a zero at DC, so the bed carries no offset.
    static let highPassCorner = 20.0
    static let highPassPole = 1 - 2 * Double.pi * highPassCorner / Double(AudioFormat.sampleRate)

    /// Gain that brings uniform white noise in [-1, 1) to `targetRMS` after the colour's filters,
    /// from their impulse response's energy (the output's variance is the input's times the sum of
    /// the squared impulse response), so changing a pole keeps the level.
    static let brownGain = normalisingGain(.brown)
    static let pinkGain = normalisingGain(.pink)

    private var brown = 0.0
    /// Kellet's six sections (inline storage: shaping never allocates).
    private var pink = [6 of Double](repeating: 0)
    private var pinkLast = 0.0
    private var highPassIn = 0.0
    private var highPassOut = 0.0
    private let gain: Double
    // The constants the per-sample path uses, copied from the type's: a `static let` is a lazily
    // made global, and reading one costs a check each time, 96,000 times a second.
    private let leak = Self.brownLeak
    private let highPassScale = (1 + Self.highPassPole) / 2
    private let highPassFeedback = Self.highPassPole

    init(colour: NoiseColour) {
        let gain = switch colour {
        case .brown: Self.brownGain
        case .pink: Self.pinkGain
        }
        self.init(colour: colour, gain: gain)
    }

    private init(colour: NoiseColour, gain: Double) {
        self.colour = colour
        self.gain = gain
    }

    /// The next output sample for the white sample `white`.
    mutating func shape(_ white: Double) -> Double {
        let coloured: Double
        switch colour {
        case .brown:
            brown = leak * brown + white
            coloured = brown
        case .pink:
            var sum = white * Self.pinkDirect + pinkLast
            for k in pink.indices {
                pink[k] = Self.pinkPoles[k] * pink[k] + white * Self.pinkWeights[k]
                sum += pink[k]
            }
            pinkLast = white * Self.pinkDelayed
            coloured = sum
        }
        // y[n] = x[n] - x[n-1] + R y[n-1], scaled by (1 + R) / 2 for unity gain at the top.
        let blocked = (coloured - highPassIn) * highPassScale + highPassFeedback * highPassOut
        highPassIn = coloured
        highPassOut = blocked
        return blocked * gain
    }

    /// Resets to silence: the state a seek warms up from.
    mutating func reset() {
        brown = 0
        pink = [6 of Double](repeating: 0)
        pinkLast = 0
        highPassIn = 0
        highPassOut = 0
    }

    /// The gain for `colour`, from two seconds of its unit impulse response (every pole has
    /// decayed by far more than 100 dB by then).
    private static func normalisingGain(_ colour: NoiseColour) -> Double {
        var shaper = NoiseShaper(colour: colour, gain: 1)
        var energy = 0.0
        for i in 0..<(2 * AudioFormat.sampleRate) {
            let h = shaper.shape(i == 0 ? 1 : 0)
            energy += h * h
        }
        // Uniform noise in [-1, 1) has variance 1/3.
        return targetRMS / (energy / 3).squareRoot()
    }
}
