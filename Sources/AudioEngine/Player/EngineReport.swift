import Foundation
import PlayerCore

/// What the render thread tells the player actor. The actor stamps each fact with its clock.
enum EngineFact: Sendable, Equatable {
    case loaded(LoadID, duration: Double?)
    /// The live address of a load that is being installed holds a finished recording (told just
    /// before its `loaded`).
    case loadIsRecording(LoadID)
    case loadFailed(LoadID, PlaybackError)
    /// `buffered`: seconds of decoded audio queued on a network deck (nil for a file).
    case position(DeckID, position: Double, duration: Double?, buffered: Double?)
    case underrun(DeckID)
    case refilled(DeckID)
    /// Fill level towards the refill threshold while a network deck underruns.
    case bufferProgress(DeckID, fill: Float)
    case crossfadeStarted
    case crossfadeProgress(Float, fromPosition: Double, toPosition: Double)
    case crossfadeCompleted
    case fadeOutCompleted
    case trackEnded(DeckID)
    case deckFailed(DeckID, PlaybackError)
    case outputLost(PlaybackError)
    case outputRestored
    case routeChanged(RouteChange)
    /// Silence trimming has left this much of the deck's media out so far.
    case silenceTrimmed(DeckID, seconds: Double)
    /// A track whose loudness was not known played from its start to its end; this is what was
    /// heard (kept, so the next play is levelled from its first frame).
    case loudnessHeard(Track, Loudness)
    /// The session's clock and its bed, with every position report while layers play.
    case layersProgress(sessionTime: Double, bed: BedStatus?)
    /// A strike of the armed bell sounded, at `sessionTime` on the session's clock and
    /// `audioTime` on the audio clock (its own frame, not the report's).
    case bellStruck(BellCue, strike: Int, sessionTime: Double, audioTime: Double)
    /// A seek of the current stage moved the session's clock.
    case sessionClockJumped(from: Double, to: Double)
    /// After `endLayers`: the bed has faded out and no bell rings.
    case layersFinished
}

/// A fact with the audio clock (seconds of audio written to the sink) at which it happened.
struct EngineReport: Sendable, Equatable {
    let fact: EngineFact
    let audioTime: Double
}
