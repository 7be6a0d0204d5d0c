import Foundation

/// `isValid`: a state must carry consistent context.
extension PlayerState {
    /// Rules: URLs use a playable scheme (file, http, https: episodes and streams crossfade like
    /// files); progress, fill and volumes lie in 0...1; positions are >= 0; durations > 0; a
    /// crossfade never goes from a track to itself; reconnect attempts lie in 1...maxAttempts; a
    /// recoverable failure keeps a resume point.
    public var isValid: Bool {
        switch self {
        case .idle, .finished:
            return true
        case .preparing(let t), .playing(let t):
            return t.hasPlayableURL
        case .buffering(let t, let progress, _):
            return t.hasPlayableURL && Self.isUnit(progress)
        case .seeking(let t, let from, let to):
            return t.hasPlayableURL && from.isFinite && from >= 0 && to.isFinite && to >= 0
        case .preparingCrossfade(let current, let next):
            return current.hasPlayableURL && next.hasPlayableURL && current.id != next.id
        case .paused(let t, let position):
            return t.hasPlayableURL && position.isFinite && position >= 0
        case .crossfading(let from, let to, let progress, let canQuickFinish):
            return from.hasPlayableURL && to.hasPlayableURL && from.id != to.id && Self.isUnit(progress)
                && canQuickFinish == (progress >= Self.quickFinishThreshold)
        case .crossfadePaused(let from, let to, let progress, let strategy, let s):
            return from.hasPlayableURL && to.hasPlayableURL && from.id != to.id && Self.isUnit(progress)
                && strategy == ResumeStrategy.forPause(at: progress)
                && Self.isUnit(s.activeVolume) && Self.isUnit(s.inactiveVolume)
                && s.activePosition.isFinite && s.activePosition >= 0
                && s.inactivePosition.isFinite && s.inactivePosition >= 0
                && s.originalDuration.isFinite && s.originalDuration > 0
        case .fadingOut(let t, let duration):
            return t.hasPlayableURL && duration.isFinite && duration > 0
        case .reconnecting(let t, let attempt, let maxAttempts, let at, _):
            return t.hasPlayableURL && maxAttempts >= 1 && (1...maxAttempts).contains(attempt)
                && (at.map { $0.seconds.isFinite } ?? true)
        case .failed(_, let recoverable, let resumePoint):
            if let resumePoint, !(resumePoint.position.isFinite && resumePoint.position >= 0) { return false }
            return !recoverable || resumePoint != nil
        }
    }

    private static func isUnit(_ x: Float) -> Bool { x.isFinite && x >= 0 && x <= 1 }
}
