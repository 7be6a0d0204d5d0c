import Foundation
import PlayerCore

/// Headless control: when stdin is not a terminal, one command per line — `pause`, `resume`
/// (or `play`), `stop`, `skip` (or `next`), `seek SECONDS`, `retry` (also `retry-now`, `cancel`,
/// `reset`), `volume 0.5` (or `50%`, `+5%`, `-5%`), `sleep 20m` (or `90s`, `1h`, `end`, `+5m`,
/// `cancel`), `speed 1.5` (or `1.5x`, `+0.25`, `-0.25`), `trim-silence on|off`,
/// `loudness off|track|session`, `chapter next|previous|N` (N from 1; `next` in the last chapter,
/// or without chapters, is the next item, as `n` is; plain `next` is always the next item).
/// Each is a `PlayerCommand`, read by the state like a key or an MPRIS call.
package enum HeadlessInput {
    /// The command a line asks for, or nil for a line that is not a command.
    package static func parse(_ line: String) -> PlayerCommand? {
        let words = line.trimmingCharacters(in: .whitespacesAndNewlines).lowercased().split(separator: " ", omittingEmptySubsequences: true)
        guard let first = words.first else { return nil }
        switch (first, words.count) {
        case ("pause", 1): return .pause
        case ("resume", 1), ("play", 1): return .play
        case ("stop", 1): return .stop
        case ("skip", 1), ("next", 1): return .next
        case ("retry", 1), ("r", 1): return .retry
        case ("retry-now", 1): return .retryNow
        case ("cancel", 1): return .cancelRetry
        case ("reset", 1): return .reset
        case ("seek", 2):
            guard let seconds = Double(words[1]), seconds.isFinite else { return nil }
            return .seekTo(max(0, seconds))
        case ("volume", 2...):
            return VolumeChange.parse(words.dropFirst().joined()).map(PlayerCommand.volume)
        case ("trim-silence", 2) where words[1] == "on" || words[1] == "off":
            return .trimSilence(words[1] == "on")
        case ("loudness", 2):
            return LoudnessMode.parse(String(words[1])).map { .loudness(.to($0)) }
        case ("speed", 2):
            return SpeedChange.parse(String(words[1])).map(PlayerCommand.speed)
        case ("chapter", 2):
            switch words[1] {
            case "next": return .chapter(.next)
            case "previous", "prev": return .chapter(.previous)
            default:
                guard let number = Int(words[1]), number >= 1 else { return nil }
                return .chapter(.number(number))
            }
        case ("sleep", 2):
            return SleepRequest.parse(String(words[1])).map(PlayerCommand.sleep)
        default: return nil
        }
    }

    /// Lines of stdin, read on their own thread (a blocking read must not hold a task's thread).
    package static func lines() -> AsyncStream<String> {
        AsyncStream { continuation in
            Thread.detachNewThread {
                while let line = readLine(strippingNewline: true) { continuation.yield(line) }
                continuation.finish()
            }
        }
    }
}
