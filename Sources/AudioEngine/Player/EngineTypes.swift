import Foundation
import PlayerCore
import Synchronization

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
    /// Fill level towards the refill threshold while a network deck underruns.
    case bufferProgress(PlayerNode, fill: Float)
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
    /// Opens `track`. Runs on a loader thread and may block (connecting, probing); `load` is
    /// cancelled when the player abandons the load, and a factory that blocks must then give up
    /// promptly (register what to close with `load.onCancel`).
    func makeDecoder(for track: Track, load: LoadCancellation) throws(PlaybackError) -> any AudioDecoder
}

/// Lets the player abandon a load that is still opening (a stop, a skip, a new attempt): the
/// factory registers how to wake its blocked work, the loader thread checks `isCancelled`.
/// `connection` is the line between the load's network source (if any) and the state machine.
public final class LoadCancellation: Sendable {
    private struct State {
        var cancelled = false
        var handlers: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())
    /// A network source reports its connection's facts here and is told when to give it up.
    public let connection: ConnectionLink

    public init(connection: ConnectionLink = ConnectionLink()) {
        self.connection = connection
    }

    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Runs `handler` on cancellation (at once if already cancelled).
    public func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow: Bool = state.withLock {
            if $0.cancelled { return true }
            $0.handlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    public func cancel() {
        let toRun: [@Sendable () -> Void] = state.withLock { state in
            guard !state.cancelled else { return [] }
            state.cancelled = true
            defer { state.handlers.removeAll() }
            return state.handlers
        }
        toRun.forEach { $0() }
    }
}

/// How much network tracks (streams and remote episodes) buffer, in seconds of decoded audio.
/// How long buffering may take is the state machine's decision
/// (`PlayerStateMachine.Configuration.bufferingTimeout`).
public struct NetworkBuffering: Sendable, Equatable {
    /// Audio buffered before a stream starts sounding (about 1 s).
    public var startSeconds: Double
    /// Audio buffered again before an underrun ends (about 2 s).
    public var refillSeconds: Double

    public init(startSeconds: Double = 1, refillSeconds: Double = 2) {
        self.startSeconds = startSeconds
        self.refillSeconds = refillSeconds
    }
}
