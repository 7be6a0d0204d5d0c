import PlayerCore

/// The state's display texts, from the catalogs (`state.status.…`, `state.display.…`). `now`
/// turns a scheduled reconnect into a countdown ("Reconnecting in 3 s (attempt 2 of 8)");
/// without it the attempt alone is shown.
extension PlayerState {
    /// Short status for compact places (status line, mini player, MPRIS clients).
    package func statusText(in language: Language, now: PlayerTime? = nil) -> String {
        func t(_ key: String, _ arguments: any CVarArg...) -> String {
            Texts.format("state.status.\(key)", in: language, arguments: arguments)
        }
        switch self {
        case .idle: return t("idle")
        case .preparing: return t("preparing")
        case .preparingCrossfade, .playing: return t("playing")
        case .buffering(_, _, .connecting): return t("connecting")
        case .buffering(_, let p, _): return t("buffering", Self.percent(p))
        case .seeking(_, _, let to): return t("seeking", EpisodeText.clock(to))
        case .crossfading(_, _, let p, _): return t("crossfading", Self.percent(p))
        case .paused: return t("paused")
        case .crossfadePaused(_, _, let p, _, _): return t("crossfadePaused", Self.percent(p))
        case .fadingOut: return t("fadingOut")
        case .reconnecting(_, let attempt, let max, let at, _):
            guard let at else { return t("reconnectingWaiting", attempt, max) }
            guard let now else { return t("reconnecting", attempt, max) }
            return t("reconnectingIn", Self.countdownSeconds(at.since(now)), attempt, max)
        case .finished: return t("finished")
        case .failed: return t("failed")
        }
    }

    /// Longer, human description naming the tracks (expanded player, notifications).
    package func displayText(in language: Language, now: PlayerTime? = nil) -> String {
        func t(_ key: String, _ arguments: any CVarArg...) -> String {
            Texts.format("state.display.\(key)", in: language, arguments: arguments)
        }
        func title(_ track: Track) -> String { track.title ?? t("untitledTrack") }
        switch self {
        case .idle, .finished: return statusText(in: language)
        case .preparing(let track): return t("preparing", title(track))
        case .preparingCrossfade(let current, let next): return t("preparingCrossfade", title(current), title(next))
        case .playing(let track): return t("playing", title(track))
        case .buffering(let track, _, .connecting): return t("connecting", title(track))
        case .buffering(let track, let p, _): return t("buffering", title(track), Self.percent(p))
        case .seeking(let track, _, let to): return t("seeking", title(track), EpisodeText.clock(to))
        case .crossfading(_, let to, let p, _): return t("crossfading", title(to), Self.percent(p))
        case .paused(let track, _): return t("paused", title(track))
        case .crossfadePaused(_, _, let p, let strategy, _):
            switch strategy {
            case .quickFinish: return t("crossfadePaused.quickFinish", Self.percent(p))
            case .continueFromProgress: return t("crossfadePaused.continueFromProgress", Self.percent(p))
            }
        case .fadingOut(let track, _): return t("fadingOut", title(track))
        case .reconnecting(let track, _, _, _, _): return t("reconnecting", title(track), statusText(in: language, now: now))
        case .failed(let error, let recoverable, _):
            return t(recoverable ? "failedRetryable" : "failed", error.message(in: language))
        }
    }

    /// Progress, truncated to a whole percent.
    static func percent(_ progress: Float) -> Int { Int((min(1, max(0, progress)) * 100).rounded(.down)) }

    /// A countdown never shows 0 while time remains: 2.1 s reads "3 s".
    static func countdownSeconds(_ seconds: Double) -> Int { max(0, Int(seconds.rounded(.up))) }
}
