import Foundation
import Media

/// A struck singing bowl, made from its partials: a bell that needs no recording.
///
/// A bowl rings in the flexural modes of a free ring, whose frequencies Rayleigh gives as
/// f(n) ∝ n(n² − 1) / √(n² + 1) for n = 2, 3, 4… (The Theory of Sound, on the flexural vibrations
/// of a ring); measured Tibetan bowls sit close to those ratios (Inácio, Henrique and Antunes,
/// "The Dynamics of Tibetan Singing Bowls", Acta Acustica 92, 2006). Relative to the lowest they are 1, 2.83, 5.42, 8.77, 12.87: not
/// integer multiples, which is what makes a bowl sound like metal rather than a string. Each
/// partial decays exponentially, the higher ones faster, and the fundamental is a pair of modes
/// split by the bowl's small asymmetry, so it beats slowly, the bowl's "wah".
///
/// The strike is at frame 0: every partial starts at its crest there, behind a 1 ms attack, so a
/// bell's onset is exact to the frame. The sound ends after `seconds` with a release that reaches
/// exactly 0 on the last frame, so nothing clicks where it stops.
enum BowlBell {
    /// One mode of the bowl.
    struct Partial {
        /// Frequency relative to the fundamental.
        let ratio: Double
        /// Amplitude relative to the fundamental's, before normalisation.
        let amplitude: Double
        /// Seconds to fall by 60 dB.
        let decaySeconds: Double
    }

    /// The lowest mode, hertz: a medium bowl, between A#3 and B3.
    static let fundamental = 240.0
    /// The first flexural modes of a free ring (n = 2…6), with the strike's balance: the lowest
    /// two carry the tone, the upper ones its metallic shimmer, dying first as in real bowls.
    static let partials: [Partial] = {
        let amplitudes = [1.0, 0.55, 0.3, 0.18, 0.1]
        let decays = [9.0, 6.0, 3.5, 2.0, 1.2]
        return (2...6).enumerated().map { index, n in
            Partial(ratio: ringMode(n) / ringMode(2), amplitude: amplitudes[index], decaySeconds: decays[index])
        }
    }()

    /// The fundamental's twin mode: this many hertz above it, so the two beat about once a second.
    static let beatHertz = 1.3
    /// The twin's amplitude relative to the fundamental: a gentle swell, not a tremolo.
    static let beatAmplitude = 0.3

    /// The bell's whole length: the fundamental has fallen about 80 dB by then.
    static let seconds = 12.0
    static let frames = Int(AudioFormat.frames(forSeconds: seconds))
    /// The strike's rise: 1 ms, fast enough to be a strike and to place the onset within a
    /// millisecond, long enough not to be a bare step from silence.
    static let attackFrames = 48
    /// The closing fade: short against the ring, long enough that the last, already quiet samples
    /// reach 0 smoothly.
    static let releaseFrames = Int(AudioFormat.frames(forSeconds: 0.25))
    /// The loudest sample: -3 dBFS, leaving room for a bed under it.
    static let peak = pow(10, -3.0 / 20)

    /// The bell, mono, rendered once per process (a session may strike it many times).
    static let samples: [Float] = render()

    /// Rayleigh's frequency of a free ring's n-th flexural mode, up to a constant.
    static func ringMode(_ n: Int) -> Double {
        let n = Double(n)
        return n * (n * n - 1) / (n * n + 1).squareRoot()
    }

    /// Every frame of the bell, mono, its peak at `peak`.
    static func render() -> [Float] {
        let rate = Double(AudioFormat.sampleRate)
        var voices = partials.map { (frequency: fundamental * $0.ratio, amplitude: $0.amplitude, decaySeconds: $0.decaySeconds) }
        let lowest = partials[0]
        voices.append((fundamental + beatHertz, lowest.amplitude * beatAmplitude, lowest.decaySeconds))
        var mix = [Double](repeating: 0, count: frames)
        for voice in voices {
            let step = 2 * Double.pi * voice.frequency / rate
            // 60 dB over decaySeconds: ln(1000) per decaySeconds, as a factor per frame.
            let fall = exp(-log(1000) / (voice.decaySeconds * rate))
            var envelope = voice.amplitude
            for i in 0..<frames {
                mix[i] += envelope * cos(step * Double(i))
                envelope *= fall
            }
        }
        for i in 0..<attackFrames {
            mix[i] *= 0.5 - 0.5 * cos(Double.pi * Double(i) / Double(attackFrames))
        }
        // Raised cosine from 1 to exactly 0 on the last frame (0.5 + 0.5 cos π is 0 exactly).
        for j in 0..<releaseFrames {
            mix[frames - releaseFrames + j] *= 0.5 + 0.5 * cos(Double.pi * Double(j + 1) / Double(releaseFrames))
        }
        let loudest = mix.reduce(0) { max($0, abs($1)) }
        let gain = loudest > 0 ? peak / loudest : 0
        return mix.map { Float($0 * gain) }
    }
}
