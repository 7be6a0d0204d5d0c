import Foundation

/// What a state means for the user: activity, tracks, allowed actions and what to show.
extension PlayerState {
    /// Is the player making sound? Playing, crossfading and fadingOut, and `preparingCrossfade`
    /// too: the current track plays while the next one loads.
    public var isActive: Bool {
        switch self {
        case .playing, .crossfading, .fadingOut, .preparingCrossfade: true
        default: false
        }
    }

    /// Can the user pause now? Also while buffering or reconnecting: the intent is kept, and a
    /// paused stream stays paused across a reconnect.
    public var canPause: Bool { allows(.pause) }

    /// Can the user resume from here?
    public var canResume: Bool { allows(.resume) }

    /// Finished or failed: only a new play, a retry or a reset leaves it.
    public var isTerminal: Bool {
        switch self {
        case .finished, .failed: true
        default: false
        }
    }

    /// The track being heard, or last heard. During a crossfade it is the one fading out.
    /// For `failed` it is the resume point's track, so a failed episode stays known.
    public var currentTrack: Track? {
        switch self {
        case .preparing(let t), .playing(let t), .paused(let t, _), .fadingOut(let t, _),
            .buffering(let t, _, _), .seeking(let t, _, _), .reconnecting(let t, _, _, _, _):
            return t
        case .preparingCrossfade(let current, _), .crossfading(let current, _, _, _),
            .crossfadePaused(let current, _, _, _, _):
            return current
        case .failed(_, _, let resumePoint):
            return resumePoint?.track
        case .idle, .finished:
            return nil
        }
    }

    /// The track coming next, while a crossfade is prepared, running or paused.
    public var nextTrack: Track? {
        switch self {
        case .preparingCrossfade(_, let next), .crossfading(_, let next, _, _), .crossfadePaused(_, let next, _, _, _):
            return next
        default:
            return nil
        }
    }

    /// The error, when failed; the cause, when reconnecting.
    public var error: PlaybackError? {
        switch self {
        case .failed(let error, _, _): error
        case .reconnecting(_, _, _, _, let cause): cause
        default: nil
        }
    }

    /// Crossfade progress (0...1) when a crossfade runs or is paused.
    public var crossfadeProgress: Float? {
        switch self {
        case .crossfading(_, _, let p, _), .crossfadePaused(_, _, let p, _, _): p
        default: nil
        }
    }

    /// What the user may do now: seek where the track can seek, pause while buffering or
    /// reconnecting, retry-now and cancel in the reconnect countdown, and play from
    /// `failed` so a new episode clears the error.
    public var allowedActions: [PlayerAction] {
        switch self {
        case .idle:
            return [.play]
        case .preparing:
            return [.stop]
        case .preparingCrossfade:
            return [.pause, .stop, .skip]
        case .playing(let track):
            return track.isSeekable ? [.pause, .stop, .skip, .seek] : [.pause, .stop, .skip]
        case .buffering(let track, _, _):
            return track.isSeekable ? [.pause, .stop, .seek] : [.pause, .stop]
        case .seeking:
            return [.pause, .stop, .seek]
        case .crossfading:
            return [.pause, .stop, .skip]
        case .paused(let track, _):
            return track.isSeekable ? [.resume, .stop, .seek] : [.resume, .stop]
        case .crossfadePaused:
            return [.resume, .stop]
        case .fadingOut:
            // Already stopping: a stop is accepted, and cuts short a session's closing (its bed
            // fading away, its last bell ringing out) with the stop's own fade.
            return [.stop]
        case .reconnecting:
            return [.retryNow, .cancelRetry, .pause, .stop]
        case .finished:
            return [.play, .reset]
        case .failed(_, let recoverable, let resumePoint):
            return recoverable && resumePoint != nil ? [.retry, .play, .stop, .reset] : [.play, .stop, .reset]
        }
    }

    /// Is `action` allowed now?
    public func allows(_ action: PlayerAction) -> Bool { allowedActions.contains(action) }

    /// Colour of the state indicator.
    public var indicatorColor: IndicatorColor {
        switch self {
        case .idle, .finished: .gray
        case .preparing, .preparingCrossfade, .fadingOut, .buffering, .seeking, .reconnecting: .orange
        case .playing: .green
        case .crossfading: .blue
        case .paused, .crossfadePaused: .yellow
        case .failed: .red
        }
    }

    /// Show a progress bar (position, crossfade progress or buffer fill)?
    public var showsProgress: Bool {
        switch self {
        case .playing, .paused, .crossfading, .crossfadePaused, .fadingOut, .buffering: true
        default: false
        }
    }

    /// Show a spinner?
    public var showsLoading: Bool {
        switch self {
        case .preparing, .preparingCrossfade, .fadingOut, .buffering, .seeking, .reconnecting: true
        default: false
        }
    }

    /// Seconds until the next reconnect attempt, counted from `now` (nil when none is scheduled).
    public func secondsUntilRetry(now: PlayerTime) -> Double? {
        guard case .reconnecting(_, _, _, let at?, _) = self else { return nil }
        return max(0, at.since(now))
    }
}

/// The state indicator's colours, by name so every front end maps them its own way.
public enum IndicatorColor: String, Sendable, Hashable, Codable, CaseIterable {
    case gray, orange, green, blue, yellow, red
}
