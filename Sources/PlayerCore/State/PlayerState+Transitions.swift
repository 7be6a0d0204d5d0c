/// The valid transitions: the core ones plus Tonearm's additions. This one list drives
/// `canTransition(to:)`, the tests and `tonearm states --markdown` (docs/STATES.md's diagram), so the
/// documentation cannot drift from the code.
///
/// Decisions:
/// - Errors are accepted in every state where something is loaded (not idle, finished or failed
///   itself). An error during `fadingOut` just finishes: the user already asked to stop.
/// - A quick-finishing resume still sounds both decks for one second, so that second shows as
///   `crossfading`; a resume goes to `playing` directly only when the pause came at 100%.
/// - Stop goes from `preparingCrossfade` to `fadingOut`, since the current track is audible.
public struct TransitionRule: Sendable, Hashable, Codable {
    /// Where a rule comes from.
    public enum Origin: String, Sendable, Hashable, Codable {
        /// The core transitions of a crossfading player, without buffering or reconnects.
        case core
        /// Added by Tonearm for buffering, reconnecting, seeking and errors.
        case tonearm
    }

    public let from: PlayerState.Name
    public let to: PlayerState.Name
    public let trigger: String
    public let origin: Origin

    public init(_ from: PlayerState.Name, _ to: PlayerState.Name, _ trigger: String, _ origin: Origin) {
        self.from = from
        self.to = to
        self.trigger = trigger
        self.origin = origin
    }
}

extension PlayerState {
    /// Every allowed (from, to) pair with what triggers it.
    public static let transitionTable: [TransitionRule] = [
        // The core transitions.
        .init(.idle, .preparing, "play(track)", .core),
        .init(.preparing, .playing, "source loaded", .core),
        .init(.preparing, .failed, "load error (final, or retries exhausted)", .core),
        .init(.preparing, .idle, "stop()", .core),
        .init(.playing, .paused, "pause()", .core),
        .init(.playing, .preparingCrossfade, "skip() or the next item approaches", .core),
        .init(.playing, .fadingOut, "stop(), or the last item nears its end", .core),
        .init(.playing, .crossfading, "crossfade started (allowed; Tonearm always passes through preparingCrossfade)", .core),
        .init(.playing, .finished, "last track ended", .core),
        .init(.playing, .failed, "playback error", .core),
        .init(.preparingCrossfade, .crossfading, "next loaded and the crossfade starts", .core),
        .init(.preparingCrossfade, .paused, "pause()", .core),
        .init(.preparingCrossfade, .fadingOut, "stop(), or a skip() whose next item setUpcoming() took away, with nothing after", .core),
        .init(.crossfading, .crossfadePaused, "pause()", .core),
        .init(.crossfading, .playing, "crossfade complete", .core),
        .init(.crossfading, .fadingOut, "stop()", .core),
        .init(.crossfading, .failed, "playback error", .core),
        .init(.paused, .playing, "resume()", .core),
        .init(.paused, .idle, "stop()", .core),
        .init(.crossfadePaused, .crossfading, "resume(): continue below 50%, quick finish from 50%", .core),
        .init(.crossfadePaused, .playing, "resume() of a crossfade paused at 100%", .core),
        .init(.crossfadePaused, .idle, "stop()", .core),
        .init(.fadingOut, .finished, "fade complete (or an error while fading)", .core),
        .init(.finished, .preparing, "play(track)", .core),
        .init(.failed, .idle, "reset() or stop()", .core),
        .init(.failed, .preparing, "retry() at the saved position, or play(track)", .core),
        // Buffering.
        .init(.preparing, .buffering, "stream opened, initial fill; or still connecting after 3 s", .tonearm),
        .init(.playing, .buffering, "buffer underrun", .tonearm),
        .init(.buffering, .buffering, "fill progress, or seek()", .tonearm),
        .init(.buffering, .playing, "buffer refilled", .tonearm),
        .init(.buffering, .paused, "pause()", .tonearm),
        .init(.buffering, .idle, "stop()", .tonearm),
        .init(.buffering, .failed, "final error", .tonearm),
        // Reconnecting.
        .init(.preparing, .reconnecting, "retryable load error", .tonearm),
        .init(.playing, .reconnecting, "stream dropped or stalled, or audio output lost", .tonearm),
        .init(.buffering, .reconnecting, "stream dropped, stalled, or buffering too long", .tonearm),
        .init(.preparingCrossfade, .reconnecting, "current stream dropped, or audio output lost", .tonearm),
        .init(.crossfading, .reconnecting, "incoming stream dropped, or audio output lost", .tonearm),
        .init(.reconnecting, .reconnecting, "attempt failed, or the network went away or came back", .tonearm),
        .init(.reconnecting, .preparing, "retry due, retryNow(), the network came back, or replace(item)", .tonearm),
        .init(.reconnecting, .playing, "audio output is back", .tonearm),
        .init(.reconnecting, .paused, "pause(): the connection is made again on resume", .tonearm),
        .init(.reconnecting, .idle, "stop()", .tonearm),
        .init(.reconnecting, .failed, "attempts exhausted, cancelRetry(), a final error, or replace(item that cannot play)", .tonearm),
        // Seeking, errors and stream drops while paused.
        .init(.playing, .playing, "seek() in a local file", .tonearm),
        .init(.playing, .seeking, "seek() in a network item: waits for data at the target", .tonearm),
        .init(.buffering, .seeking, "seek() in a network item", .tonearm),
        .init(.seeking, .seeking, "seek() again", .tonearm),
        .init(.seeking, .playing, "audio from the target plays", .tonearm),
        .init(.seeking, .paused, "pause(): paused at the target", .tonearm),
        .init(.seeking, .idle, "stop()", .tonearm),
        .init(.seeking, .preparing, "the seek failed: the item loads again where it was; or replace(item)", .tonearm),
        .init(.seeking, .reconnecting, "waiting for the target too long, or a dropped stream", .tonearm),
        .init(.seeking, .finished, "the seek reached the end of the last item", .tonearm),
        .init(.seeking, .failed, "replace(item that cannot play)", .tonearm),
        .init(.paused, .paused, "seek(), or the paused stream's connection dropped", .tonearm),
        .init(.paused, .preparing, "resume() after the paused stream's connection dropped, or replace(item)", .tonearm),
        .init(.paused, .failed, "final error, or replace(item that cannot play)", .tonearm),
        .init(.crossfadePaused, .failed, "final error, or replace(item that cannot play)", .tonearm),
        .init(.preparingCrossfade, .failed, "final error on the current track", .tonearm),
        // The next item of a queue.
        .init(.preparingCrossfade, .preparingCrossfade, "skip(), or the next item failed and a later one loads, or setUpcoming() replaced it past its loading point", .tonearm),
        .init(.preparingCrossfade, .playing, "the next items failed to load (the current plays on), or the current ended with the next ready, or setUpcoming() took away the next item loading", .tonearm),
        .init(.playing, .preparing, "track ended with no time to crossfade: the next item loads", .tonearm),
        .init(.buffering, .preparing, "track ended while buffering: the next item loads; or replace(item)", .tonearm),
        .init(.buffering, .finished, "the last track ended while buffering", .tonearm),
        .init(.preparingCrossfade, .preparing, "current track ended before the next was ready", .tonearm),
        .init(.crossfading, .crossfading, "progress, or skip() quick-finishes", .tonearm),
        // Starting over.
        .init(.finished, .idle, "reset()", .tonearm),
        .init(.idle, .failed, "play() of something that cannot play (episode without audio)", .tonearm),
        .init(.finished, .failed, "play() of something that cannot play", .tonearm),
        .init(.failed, .failed, "play() of something that cannot play", .tonearm),
        // Replacing what plays with something new (what sounds fades out first).
        .init(.preparing, .preparing, "replace(item)", .tonearm),
        .init(.crossfadePaused, .preparing, "replace(item)", .tonearm),
        .init(.fadingOut, .preparing, "the fade before a replacement is over", .tonearm),
        .init(.fadingOut, .failed, "the fade before a replacement that cannot play is over", .tonearm),
    ]

    private static let allowedPairs: Set<Pair> = Set(transitionTable.map { Pair(from: $0.from, to: $0.to) })

    private struct Pair: Hashable {
        let from: Name
        let to: Name
    }

    /// Is going from this state to `newState` one of the allowed transitions?
    public func canTransition(to newState: PlayerState) -> Bool {
        PlayerState.allowedPairs.contains(Pair(from: name, to: newState.name))
    }
}
