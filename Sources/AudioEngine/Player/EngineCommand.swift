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
}
