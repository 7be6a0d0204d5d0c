import Foundation
import PlayerCore

/// Instructions for the render thread; one per `PlayerEffect` that touches audio.
enum EngineCommand: Sendable {
    case expectLoad(DeckID, LoadID)
    case install(Deck)
    case loadFailed(LoadID, PlaybackError)
    case start(DeckID)
    case unload(DeckID)
    case pauseOutput
    case resumeOutput
    case seek(DeckID, Double)
    case scheduleCrossfade(from: DeckID, to: DeckID, duration: Double, curve: FadeCurve, atPosition: Double?)
    case continueCrossfade(fromProgress: Float)
    case quickFinishCrossfade(duration: Double)
    case abortCrossfade(keep: DeckID)
    case fadeOut(duration: Double)
    case setVolume(Double)
    /// The listener's speed for every deck (a live one stays at 1).
    case setSpeed(Double)
    /// Shorten long silences on every deck (never a live one).
    case setTrimsSilence(Bool)
    /// Level loudness this way (every deck's gain glides to its new value).
    case setLoudness(LoudnessLevelling)
    /// A track's loudness was measured after it was queued: its decks take the gain it gives.
    case trackLoudness(trackID: String, Loudness)
    case reopenOutput
    case shutdown

    // MARK: Layers (a session's bed and bells, on the session's clock)
    /// A session with layers begins: its clock starts at 0 with the next `start` and counts every
    /// frame mixed (a pause holds it; a seek of the current stage moves it by as much). Any layers
    /// before are released.
    case beginLayers(LayerPlan)
    /// The layers' sounds, opened on a loader thread: the bed's deck (looping, nil without a
    /// bed) and the bell's frames (nil without bells).
    case installLayerSounds(bed: Deck?, bell: BellSound?)
    /// Strike this cue's strikes at their session times, each on its exact frame; replaces the
    /// cue armed before (strikes already ringing ring out).
    case armBell(BellCue)
    /// Duck the bed (over its attack) or bring it back (over its release).
    case duckBed(Bool)
    /// The stages are over: the bed fades out over its fade-out, bells ring out, then
    /// `layersFinished` is reported.
    case endLayers
    /// Release the layers at once.
    case stopLayers
}
