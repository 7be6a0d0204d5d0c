import Foundation

/// An instruction from the pure state machine to the I/O layers (decoder, mixer, sink, timers,
/// store). The machine decides; the `AudioPlayer` actor performs, in order.
public enum PlayerEffect: Sendable, Equatable {
    /// Open `track` on `deck` and decode from `position`, silent until `start` or a crossfade.
    case load(LoadID, deck: DeckID, track: Track, from: TimeInterval)
    /// Make a loaded deck audible (with a short de-click ramp).
    case start(DeckID)
    /// Stop decoding on a deck and release it.
    case unload(DeckID)
    /// Ramp to silence (<= 20 ms) and hold both decks where they are.
    case pauseOutput
    /// Ramp back up from where the decks were held.
    case resumeOutput
    case seek(DeckID, to: TimeInterval)
    /// Mix from one deck into the other. `atPosition` is the outgoing deck's position at which to
    /// begin, sample-accurately; nil means now.
    case scheduleCrossfade(from: DeckID, to: DeckID, duration: TimeInterval, curve: FadeCurve, atPosition: TimeInterval?)
    /// Resume a paused crossfade from `progress` with its original length and curve.
    case continueCrossfade(fromProgress: Float, duration: TimeInterval, curve: FadeCurve)
    /// Finish the running crossfade within `duration` seconds.
    case quickFinishCrossfade(duration: TimeInterval)
    /// End a crossfade at once: `keep` goes to full gain, the other deck is released.
    case abortCrossfade(keep: DeckID)
    /// Move the listener's volume to `volume` with a short ramp (no click), and tell the front ends.
    case setVolume(Volume)
    /// The sleep timer changed (set, extended, cancelled, frozen, running again, ended): tell the
    /// front ends.
    case sleepTimerChanged(SleepTimer?)
    /// Play files and episodes at `speed` from now on (live streams stay at 1x), and tell the
    /// front ends.
    case setSpeed(PlaybackSpeed)
    /// Shorten long silences of files and episodes from now on, or stop.
    case setSilenceTrimming(Bool)
    /// Level loudness this way from now on (gains glide, never jump), and tell the front ends.
    case setLoudness(LoudnessLevelling)
    /// Fade the whole mix to silence over `duration`, then report `fadeOutCompleted`.
    case fadeOut(duration: TimeInterval)
    /// Report `timerFired(timer, at:)` at instant `at` of the player's clock, replacing whatever
    /// timer was scheduled in the same slot.
    case scheduleTimer(PlayerTimer, at: PlayerTime)
    /// Forget the timer in `slot`, if any.
    case cancelTimer(PlayerTimer.Slot)
    /// Try to open the audio output again; report `outputRestored` or `outputLost`.
    case reopenOutput
    /// The deck's network connection is dead (the machine's stall decision): the source gives it up
    /// with `cause`. A source that can resume (an episode) asks again at the same byte; any other
    /// fails, and its deck reports the error once its buffered audio has played.
    case abandonConnection(DeckID, cause: PlaybackError)
    /// Ask the deck's live stream for its audio again after a drop, while what it buffered plays
    /// (`ConnectionLink.reopen()`).
    case reopenConnection(DeckID)
    /// A live stream is being reconnected while its buffer plays (true), or that is over (false):
    /// tell the front ends, so `playing` is never a silent success.
    case reconnectingInBackground(Bool)
    /// Save where the listener is (pause, stop, failure; an episode's recorder also saves every 4 s of listening).
    case persistPosition(ResumePoint)
    /// A problem that does not stop playback (the next item could not load and was skipped).
    case reportNonFatal(PlaybackError)
    /// An error was overcome: for analytics' resolution statistics.
    case recovered(from: PlaybackError, by: Recovery)
    /// Tell the listener that this stream keeps dropping (`DropWarning`): `drops` within the window.
    case warnKeepsDropping(Track, drops: Int)
    /// A track played to its end (mark an episode as played).
    case trackFinished(Track)

    // MARK: Layers (a session's bed and bells)
    /// Open the bed and the bell sound; the session's clock starts at 0 with the next `start`.
    /// Replaces any layers before.
    case startLayers(LayerPlan)
    /// Strike `cue` when the session's clock reaches its time (each of its strikes exactly on
    /// its frame), and report each strike; replaces the cue armed before.
    case armBell(BellCue)
    /// Duck the bed under a voice (true) or bring it back (false), over its attack or release.
    case duckBed(Bool)
    /// The session's stages are over: the bed fades out over its fade-out and bells ring out;
    /// report `layersFinished` once they are silent.
    case endLayers
    /// Silence and release the layers at once (a stop's fade has already covered them).
    case stopLayers
    /// The layers' status changed (nil: the session with layers is over): tell the front ends.
    case layersChanged(SessionLayersStatus?)
    /// A bell sounded (or a seek jumped over it): tell the front ends.
    case bellRang(BellStrike)

    /// How an error was overcome.
    public enum Recovery: String, Sendable, Hashable, Codable {
        case automaticRetry, manualRetry
    }
}
