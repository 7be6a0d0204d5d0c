import Foundation

/// Reconnects no one hears: a live stream that drops while playing is asked for again at once,
/// while the audio it buffered plays on.
///
/// The source tells of the drop the moment its body ends or the connection resets; the machine
/// answers with `reopenConnection` (the same source asks again and joins the new audio to the old
/// without repeats) and tells the front ends `reconnectingInBackground(true)`: the state stays
/// `playing`, which is true, and the flag says what is going on. The first bytes of the new
/// connection (`receiving`) end it, recorded as recovered automatically. A reopen that fails is
/// tried again on `BackoffPolicy.backgroundReconnect` (quick: nobody hears these attempts). When
/// the buffer runs dry before the stream is back, the listener hears the gap: the reconnect
/// becomes the visible one (`reconnecting`, with its countdown and the usual give-up rules), and
/// `reconnectingInBackground(false)` tells the front ends the flag is over.
///
/// While offline nothing is tried in the background (the buffer plays out, and the visible
/// reconnect waits for the network as usual).
extension PlayerStateMachine {
    struct BackgroundReconnect: Sendable, Hashable {
        let deck: DeckID
        var cause: PlaybackError
        /// The attempt under way or next (1 is the reopen made at the drop).
        var attempt: Int
        /// When the next attempt is due; nil while one is under way, or when none is left.
        var nextAttemptAt: PlayerTime?
    }

    /// The active live stream dropped (again, when a reopen failed).
    mutating func reconnectInBackground(_ deck: DeckID, cause: PlaybackError, at now: PlayerTime) -> [PlayerEffect] {
        let cause = Self.afterPlaying(cause)
        if var run = backgroundReconnect, run.deck == deck {
            run.cause = cause
            let policy = BackoffPolicy.backgroundReconnect
            if run.attempt < policy.maxAttempts {
                let delay = policy.delay(forRetry: run.attempt, previous: nil, using: &random)
                run.attempt += 1
                run.nextAttemptAt = now + delay
            } else {
                // No more tries: the buffer plays out, then the visible reconnect takes over.
                run.nextAttemptAt = nil
            }
            backgroundReconnect = run
            return []
        }
        guard online else { return [] }
        let warning = state.currentTrack.map { recordDrop(of: $0, at: now) } ?? []
        backgroundReconnect = BackgroundReconnect(deck: deck, cause: cause, attempt: 1, nextAttemptAt: nil)
        return [.reopenConnection(deck), .reconnectingInBackground(true)] + warning
    }

    /// The wait before a background attempt is over.
    mutating func backgroundAttemptDue(_ attempt: Int) -> [PlayerEffect] {
        guard var run = backgroundReconnect, run.attempt == attempt, case .playing = state, online else { return [] }
        run.nextAttemptAt = nil
        backgroundReconnect = run
        return [.reopenConnection(run.deck)]
    }

    /// A dropped live stream is being asked for again while its buffer plays.
    public var isReconnectingInBackground: Bool { backgroundReconnect != nil }
    /// Why the stream is being reconnected in the background (the drop), for analytics.
    public var backgroundReconnectCause: PlaybackError? { backgroundReconnect?.cause }

    /// The current stream's connection as the machine knows it (incidents in the last hour, a
    /// reconnect in the background); the shell adds the bitrate and the buffer it measures.
    public func connectionQuality(at now: PlayerTime) -> ConnectionQuality {
        guard let track = state.currentTrack else { return ConnectionQuality() }
        return ConnectionQuality(
            reconnectsLastHour: connectionIncidents.count(.reconnect, of: track.id, at: now),
            stallsLastHour: connectionIncidents.count(.stall, of: track.id, at: now),
            reconnecting: isReconnectingInBackground)
    }

    /// Bytes came on `deck`: a background reconnect of it succeeded.
    mutating func backgroundReconnectAnswered(_ deck: DeckID) -> [PlayerEffect] {
        guard let run = backgroundReconnect, run.deck == deck else { return [] }
        backgroundReconnect = nil
        return [.reconnectingInBackground(false), .recovered(from: run.cause, by: .automaticRetry)]
    }
}
