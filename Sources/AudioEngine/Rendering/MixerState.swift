import Foundation
import Media
import PlayerCore

/// What the render thread knows about its decks and its mix: which deck sits in which slot, which
/// ones sound, the crossfade, the gains and the listener's settings every deck takes. The
/// player's commands change it (`apply`, the command reducer); the render loop reads it and
/// advances its ramps block by block.
///
/// Owned by the render thread; the decks it holds are used from that thread only (but `stop`).
struct MixerState {
    var decks: [DeckID: Deck] = [:]
    /// Loads on their way to a slot: an install of any other load is stale and is dropped.
    var expected: [DeckID: LoadID] = [:]
    var audible: Set<DeckID> = []
    /// The deck whose position is reported (the outgoing one in a crossfade).
    var active: DeckID?
    var crossfade: CrossfadeRamp?
    /// Pause and resume de-clicks, the stop fade-out, the limiter's dip.
    var master = MasterGain()
    /// The listener's volume, apart from the master gain's pause ramps and fades so neither undoes
    /// the other.
    var volume = MasterGain()
    /// The listener's speed, given to every deck installed.
    var speed: Double
    /// Long silences shortened, on every deck installed.
    var trimsSilence: Bool
    /// How loudness is levelled, for every deck installed.
    var levelling: LoudnessLevelling
    /// Loudness measured after its track was queued, by track id.
    var measuredLoudness: [String: Loudness] = [:]
    var limiter: LimiterInsertion
    /// The silence-trimmed frames last reported, by deck.
    var trimmedReported: [DeckID: Int64] = [:]
    /// The output holds (paused, or faded out): nothing is rendered until a command.
    var holding = false
    var health: DeckHealth
    /// A session's bed and bells, on the session's clock.
    var layers: LayerMixer?
    /// `layersFinished` has been reported for the layers that play.
    var layersFinishedReported = false
    /// Frames in a block, for the layers' buffers.
    let blockFrames: Int

    init(
        mode: RenderMode, network: NetworkBuffering, volume: Double, speed: Double, trimsSilence: Bool, loudness: LoudnessLevelling,
        blockFrames: Int = 8_192
    ) {
        self.blockFrames = blockFrames
        levelling = loudness
        // Nothing sounds yet: the limiter goes straight in.
        limiter = LimiterInsertion(inChain: loudness.isOn || volume > 1)
        self.speed = speed
        self.trimsSilence = trimsSilence
        self.volume.set(volume)
        health = DeckHealth(blocking: mode == .asFastAsPossible, network: network)
    }

    /// The layers sound (or close the session), so rendering goes on without a stage.
    var layersSounding: Bool { layers?.isSounding ?? false }

    /// The output is ramping down to hold (a pause): no bell strike starts now.
    var isPausing: Bool { master.isRamping && master.completion == .hold }

    /// No deck sounds (whether or not the output holds).
    var isSilent: Bool {
        guard let active, audible.contains(active), decks[active] != nil else { return true }
        return false
    }

    /// The incoming deck of a crossfade that has started.
    var crossfadeIncoming: Deck? {
        guard let c = crossfade, c.isStarted else { return nil }
        return decks[c.to]
    }

    /// Before each block: the limiter's pursuit of a silent moment (see `LimiterInsertion`).
    mutating func pursueLimiter() { limiter.pursue(&master) }

    /// The master gain's ramp ran out: what it was for happens. Returns whether it was the
    /// stop fade-out, which is reported.
    mutating func masterRampEnded() -> Bool {
        switch master.takeCompletion() {
        case .hold:
            holding = true
            limiter.insertIfWanted()
        case .fadeOutDone:
            holding = true
            limiter.insertIfWanted()
            return true
        case .insertLimiter:
            limiter.dipEnded(&master)
        case .none:
            break
        }
        return false
    }

    /// The crossfade reached its end: the incoming deck is the one playing.
    mutating func completeCrossfade(_ c: CrossfadeRamp) {
        crossfade = nil
        audible.remove(c.from)
        active = c.to
    }
}
