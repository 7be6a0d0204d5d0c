import PlayerCore

/// How the render thread paces itself.
public enum RenderMode: Sendable, Equatable {
    /// Follow the sink's clock (a sound server, or the real-time null sink).
    case realtime
    /// As fast as possible (rendering to a file): decks decode far ahead and never underrun.
    case asFastAsPossible
}

/// What the render thread tells the player actor. The actor stamps each fact with its clock.
enum EngineFact: Sendable, Equatable {
    case loaded(LoadID, duration: Double?)
    case loadFailed(LoadID, PlaybackError)
    case position(PlayerNode, position: Double, duration: Double?)
    case underrun(PlayerNode)
    case refilled(PlayerNode)
    case crossfadeStarted
    case crossfadeProgress(Float, fromPosition: Double, toPosition: Double)
    case crossfadeCompleted
    case fadeOutCompleted
    case trackEnded(PlayerNode)
    case deckFailed(PlayerNode, PlaybackError)
    case outputLost(PlaybackError)
    case outputRestored
    case routeChanged(RouteChange)
}

/// A fact with the audio clock (seconds of audio written to the sink) at which it happened.
struct EngineReport: Sendable, Equatable {
    let fact: EngineFact
    let audioTime: Double
}

/// Instructions for the render thread; one per `PlayerEffect` that touches audio.
enum EngineCommand: Sendable {
    case expectLoad(PlayerNode, LoadID)
    case install(Deck)
    case loadFailed(LoadID, PlaybackError)
    case start(PlayerNode)
    case unload(PlayerNode)
    case pauseOutput
    case resumeOutput
    case seek(PlayerNode, Double)
    case scheduleCrossfade(from: PlayerNode, to: PlayerNode, duration: Double, curve: FadeCurve, atPosition: Double?)
    case continueCrossfade(fromProgress: Float)
    case quickFinishCrossfade(duration: Double)
    case abortCrossfade(keep: PlayerNode)
    case fadeOut(duration: Double)
    case reopenOutput
    case shutdown
}

/// Makes a decoder for a track. Files go to FFmpeg; streaming plugs its byte sources in here.
public protocol DecoderFactory: Sendable {
    func makeDecoder(for track: Track) throws(PlaybackError) -> any AudioDecoder
}
