import Foundation

/// The state's display texts, in English and Russian. `now` turns a scheduled reconnect into a
/// countdown ("Reconnecting in 3 s (attempt 2 of 8)"); without it the attempt alone is shown.
extension PlayerState {
    /// Short status for compact places (status line, mini player, MPRIS clients).
    public func statusText(in language: Language = .current, now: PlayerTime? = nil) -> String {
        let ru = language == .russian
        switch self {
        case .idle: return ru ? "Готов" : "Ready"
        case .preparing: return ru ? "Загрузка…" : "Loading…"
        case .preparingCrossfade, .playing: return ru ? "Воспроизведение" : "Playing"
        case .buffering(_, _, .connecting): return ru ? "Всё ещё подключаемся…" : "Still connecting…"
        case .buffering(_, let p, _): return ru ? "Буферизация \(Self.percent(p))%" : "Buffering \(Self.percent(p))%"
        case .crossfading(_, _, let p, _): return ru ? "Переход \(Self.percent(p))%" : "Crossfading \(Self.percent(p))%"
        case .paused: return ru ? "Пауза" : "Paused"
        case .crossfadePaused(_, _, let p, _, _): return ru ? "Пауза (\(Self.percent(p))%)" : "Paused (\(Self.percent(p))%)"
        case .fadingOut: return ru ? "Остановка…" : "Stopping…"
        case .reconnecting(_, let attempt, let max, let at, _):
            let of = ru ? "(попытка \(attempt) из \(max))" : "(attempt \(attempt) of \(max))"
            guard let at else { return ru ? "Ожидание сети \(of)" : "Waiting for network \(of)" }
            guard let now else { return ru ? "Переподключение \(of)" : "Reconnecting \(of)" }
            let s = Self.countdownSeconds(at.since(now))
            return ru ? "Переподключение через \(s) с \(of)" : "Reconnecting in \(s) s \(of)"
        case .finished: return ru ? "Завершено" : "Finished"
        case .failed: return ru ? "Ошибка" : "Error"
        }
    }

    /// Longer, human description naming the tracks (expanded player, notifications).
    public func displayText(in language: Language = .current, now: PlayerTime? = nil) -> String {
        let ru = language == .russian
        func title(_ t: Track) -> String { t.title ?? (ru ? "трек" : "track") }
        switch self {
        case .idle: return statusText(in: language)
        case .preparing(let t): return ru ? "Загрузка «\(title(t))»…" : "Loading \(title(t))…"
        case .preparingCrossfade(let c, let n):
            return ru ? "Играет «\(title(c))» (далее: «\(title(n))»)" : "Playing \(title(c)) (Next: \(title(n)))"
        case .playing(let t): return ru ? "Играет «\(title(t))»" : "Playing \(title(t))"
        case .buffering(let t, _, .connecting):
            return ru ? "Всё ещё подключаемся к «\(title(t))»…" : "Still connecting to \(title(t))…"
        case .buffering(let t, let p, _):
            return ru ? "Буферизация «\(title(t))» (\(Self.percent(p))%)" : "Buffering \(title(t)) (\(Self.percent(p))%)"
        case .crossfading(_, let to, let p, _):
            return ru ? "Переход к «\(title(to))» (\(Self.percent(p))%)" : "Transitioning to \(title(to)) (\(Self.percent(p))%)"
        case .paused(let t, _): return ru ? "Пауза: «\(title(t))»" : "Paused: \(title(t))"
        case .crossfadePaused(_, _, let p, let strategy, _):
            let how: String
            switch (strategy, ru) {
            case (.quickFinish, false): how = "finishing soon"
            case (.continueFromProgress, false): how = "resuming"
            case (.quickFinish, true): how = "скоро завершится"
            case (.continueFromProgress, true): how = "продолжится"
            }
            return ru ? "Пауза во время перехода (\(Self.percent(p))%, \(how))" : "Paused during transition (\(Self.percent(p))%, \(how))"
        case .fadingOut(let t, _): return ru ? "Остановка «\(title(t))»…" : "Stopping \(title(t))…"
        case .reconnecting(let t, _, _, _, _):
            let status = statusText(in: language, now: now)
            return ru ? "«\(title(t))»: \(status)" : "\(title(t)): \(status)"
        case .finished: return statusText(in: language)
        case .failed(let error, let recoverable, _):
            let hint = recoverable ? (ru ? " (можно повторить)" : " (retry available)") : ""
            return (ru ? "Ошибка: " : "Error: ") + error.message(in: language) + hint
        }
    }

    /// Progress, truncated to a whole percent.
    static func percent(_ progress: Float) -> Int { Int((min(1, max(0, progress)) * 100).rounded(.down)) }

    /// A countdown never shows 0 while time remains: 2.1 s reads "3 s".
    static func countdownSeconds(_ seconds: Double) -> Int { max(0, Int(seconds.rounded(.up))) }
}
