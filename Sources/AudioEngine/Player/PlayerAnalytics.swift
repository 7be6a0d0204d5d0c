import PlayerCore

/// Feeds local error analytics from what the player does, one incident per failure:
/// - a reconnect run is recorded once, at its first attempt (the later attempts are the same
///   incident), and resolved `automaticRetry` when the stream plays again;
/// - a failure that is not the end of a recorded run is recorded on its own; the user's Retry that
///   then succeeds resolves it `manualRetry`;
/// - a problem that did not stop playback (a queued item skipped) is recorded, unresolved;
/// - a live stream reconnected while its buffer plays is an incident too, recorded when the drop
///   is noticed and resolved `automaticRetry` when the stream is back (heard or not); if the
///   buffer runs dry first, the visible reconnect that follows is the same incident.
///
/// Inputs are handled in order by one task, so a resolution always finds the event it resolves.
final class PlayerAnalytics: Sendable {
    private enum Input: Sendable {
        case state(PlayerState)
        case notice(PlayerNotice)
        case backgroundReconnect(PlaybackError)
        /// Resumed when every input before it has been handled.
        case barrier(CheckedContinuation<Bool, Never>)
    }

    private let continuation: AsyncStream<Input>.Continuation
    private let task: Task<Void, Never>

    init(_ analytics: ErrorAnalytics) {
        let (inputs, continuation) = AsyncStream.makeStream(of: Input.self, bufferingPolicy: .unbounded)
        self.continuation = continuation
        task = Task {
            var open: ErrorEvent.ID?
            var operation: AnalyticsIdentifier = "play"
            for await input in inputs {
                switch input {
                case .barrier(let waiter):
                    waiter.resume(returning: true)
                case .backgroundReconnect(let cause):
                    if open == nil { open = await analytics.record(cause, operation: operation).id }
                case .state(let state):
                    if let track = state.currentTrack { operation = Self.operation(for: track) }
                    switch state {
                    case .reconnecting(_, 1, _, _, let cause) where open == nil:
                        open = await analytics.record(cause, operation: operation).id
                    case .failed(let error, _, _):
                        // The end of a recorded reconnect run is that run's incident, unresolved.
                        if open == nil { open = await analytics.record(error, operation: operation).id }
                    case .idle, .finished:
                        open = nil
                    default:
                        break
                    }
                case .notice(.recovered(_, let how)):
                    if let id = open {
                        await analytics.recordResolution(id, how == .manualRetry ? .manualRetry : .automaticRetry)
                    }
                    open = nil
                case .notice(.nonFatal(let error)):
                    await analytics.record(error, operation: "loadNext")
                case .notice:
                    break
                }
            }
        }
    }

    func observe(_ state: PlayerState) { continuation.yield(.state(state)) }
    func observe(_ notice: PlayerNotice) { continuation.yield(.notice(notice)) }
    func observeBackgroundReconnect(_ cause: PlaybackError) { continuation.yield(.backgroundReconnect(cause)) }
    func finish() { continuation.finish() }

    /// Waits until every input so far is handled; recording goes on afterwards.
    func settled() async {
        let queued = await withCheckedContinuation { (waiter: CheckedContinuation<Bool, Never>) in
            if case .terminated = continuation.yield(.barrier(waiter)) { waiter.resume(returning: false) }
        }
        if !queued { await task.value }
    }

    /// Ends the inputs and waits until every event is written, so a process that exits right
    /// after a failure still has it recorded.
    func drained() async {
        continuation.finish()
        await task.value
    }

    static func operation(for track: Track) -> AnalyticsIdentifier {
        switch track.kind {
        case .liveStream: "playStation"
        case .episode: "playEpisode"
        case .file: "playFile"
        }
    }
}
