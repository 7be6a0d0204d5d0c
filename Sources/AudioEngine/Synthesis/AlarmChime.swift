import Foundation
import Media

/// The alarm's local fallback: a plain two-tone chime, high then low, then a pause, repeated
/// for as long as it plays. Plain on purpose: it must wake, and be recognisable as the alarm
/// rather than as music.
enum AlarmChime {
    /// The tones, in order: A5 then E5, a falling fifth, the interval of a door chime.
    static let tones: [(frequency: Double, seconds: Double)] = [(880, 0.25), (660, 0.25)]
    /// The pause after the tones, before the chime repeats.
    static let pauseSeconds = 0.5
    /// Each tone fades in and out over 5 ms, so it starts and stops without a click.
    static let fadeFrames = Int(AudioFormat.frames(forSeconds: 0.005))
    /// -6 dBFS: loud enough to wake, with headroom left.
    static let peak = pow(10, -6.0 / 20)

    /// One repeat (tones and pause), mono, rendered once per process; the chime loops it.
    static let period: [Float] = render()

    /// One repeat of the chime, mono: each tone starts at phase 0 and is faded at both ends.
    static func render() -> [Float] {
        var out: [Float] = []
        for tone in tones {
            let frames = Int(AudioFormat.frames(forSeconds: tone.seconds))
            let step = 2 * Double.pi * tone.frequency / Double(AudioFormat.sampleRate)
            for i in 0..<frames {
                out.append(Float(peak * fade(i, of: frames) * sin(step * Double(i))))
            }
        }
        out += repeatElement(0, count: Int(AudioFormat.frames(forSeconds: pauseSeconds)))
        return out
    }

    /// A raised-cosine fade over `fadeFrames` at each end of a tone of `frames` frames: 0 at the
    /// tone's first frame and after its last.
    private static func fade(_ i: Int, of frames: Int) -> Double {
        let fromEdge = min(i, frames - i)
        guard fromEdge < fadeFrames else { return 1 }
        return 0.5 - 0.5 * cos(Double.pi * Double(fromEdge) / Double(fadeFrames))
    }
}
