import Foundation
import Media
import PlayerCore

/// The levelling gain of one deck. A track whose loudness is known gets its gain at once (a
/// 50 ms glide when the mode or the figure changes); any other (a live stream, an episode never
/// heard before, a file still being measured) follows its own short-term loudness slowly, so
/// music and talk sit together without pumping. The meter also measures what is heard of a
/// track from its start, so an episode is known the next time it plays.
/// Render thread only.
final class DeckLevel {
    /// The gain applied, amplitude; glides.
    var gain = MasterGain()
    private var levelling: LoudnessLevelling
    private var loudness: Loudness?
    private let sessionLoudness: Loudness?
    /// The gain in dB the deck is gliding to, or sits at.
    private(set) var targetDecibels: Double = 0
    /// Short-term and integrated meter of the deck's audio before any gain; made on the first
    /// frame metered, so a deck played with levelling off never allocates one.
    private lazy var meter = LoudnessMeter(measure: .shortTermAndIntegrated)
    private var framesSinceAdjustment: Int64 = 0
    /// Every frame of the track since its start went through the meter (no seek, no resume).
    private(set) var heardFromStart: Bool

    /// Adaptive levelling looks again every 0.5 s of audio...
    static let adaptiveIntervalFrames: Int64 = 24_000
    /// ...and moves at most this far each time (1.5 dB a second): slow enough not to pump.
    static let adaptiveStep = 0.75
    /// Over the first seconds it may move faster, to reach the level of a new stream soon.
    static let adaptiveOpeningStep = 3.0
    static let adaptiveOpeningFrames: Int64 = 480_000
    /// The last 400 ms this far under the last 3 s: the sound is fading out, not getting quieter.
    static let adaptiveFallingGate = 10.0

    init(levelling: LoudnessLevelling, track: Track, startsAtBeginning: Bool) {
        self.levelling = levelling
        loudness = track.loudness
        sessionLoudness = track.sessionLoudness
        heardFromStart = startsAtBeginning && !track.isLive
        if let fixed = levelling.gain(track: loudness, session: sessionLoudness) {
            targetDecibels = fixed
            gain.set(LoudnessLevelling.amplitude(decibels: fixed))
        }
    }

    /// Is the gain fixed by a known loudness (not adaptive)?
    var isKnown: Bool { levelling.gain(track: loudness, session: sessionLoudness) != nil }

    /// Integrated loudness of what went through the meter, LUFS.
    var heardIntegrated: Double? { heardFromStart ? meter.integrated : nil }

    func setLevelling(_ levelling: LoudnessLevelling) {
        self.levelling = levelling
        retarget()
    }

    /// The track's loudness became known (measured in the background).
    func setLoudness(_ loudness: Loudness) {
        self.loudness = loudness
        retarget()
    }

    /// The deck jumped: what is heard from now on is not the track from its start.
    func seeked() { heardFromStart = false }

    /// Meters the deck's audio (before any gain) and moves the adaptive gain.
    func observe(_ samples: UnsafePointer<Float>, frames: Int) {
        guard frames > 0 else { return }
        guard levelling.isOn else {
            // Not metered while levelling is off (it costs nothing then), so not heard whole.
            heardFromStart = false
            return
        }
        meter.add(samples, frames: frames)
        guard !isKnown else { return }
        framesSinceAdjustment += Int64(frames)
        guard framesSinceAdjustment >= Self.adaptiveIntervalFrames else { return }
        framesSinceAdjustment = 0
        // Following only while the sound is steady: as a stream falls silent, the 3 s measure
        // sinks for 3 s while the last 400 ms are already quiet, and following it would pump
        // the gain up into the pause.
        guard let shortTerm = meter.shortTerm, let momentary = meter.momentary,
            momentary > shortTerm - Self.adaptiveFallingGate, let wanted = levelling.adaptiveGain(shortTerm: shortTerm)
        else { return }
        let step = meter.frames < Self.adaptiveOpeningFrames ? Self.adaptiveOpeningStep : Self.adaptiveStep
        let next = targetDecibels + min(step, max(-step, wanted - targetDecibels))
        glide(to: next, frames: Self.adaptiveIntervalFrames)
    }

    private func retarget() {
        let decibels: Double
        if !levelling.isOn {
            decibels = 0
        } else if let fixed = levelling.gain(track: loudness, session: sessionLoudness) {
            decibels = fixed
        } else {
            return  // adaptive: the next look at the meter moves it
        }
        glide(to: decibels, frames: MasterGain.volumeRampFrames)
    }

    private func glide(to decibels: Double, frames: Int64) {
        targetDecibels = decibels
        gain.ramp(to: LoudnessLevelling.amplitude(decibels: decibels), frames: frames, shape: .cosine, completion: .none)
    }
}
