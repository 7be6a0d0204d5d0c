import Foundation
import PlayerCore

/// Headless control: when stdin is not a terminal, one command per line — `pause`, `resume`,
/// `stop`, `skip`, `seek SECONDS`, `retry` (also `retry-now`, `cancel`, `reset`).
enum HeadlessInput {
    /// The intent a line asks for, or nil for a line that is not a command.
    static func parse(_ line: String) -> PlayerEvent? {
        let words = line.trimmingCharacters(in: .whitespacesAndNewlines).lowercased().split(separator: " ", omittingEmptySubsequences: true)
        guard let first = words.first else { return nil }
        switch (first, words.count) {
        case ("pause", 1): return .pause
        case ("resume", 1), ("play", 1): return .resume
        case ("stop", 1): return .stop
        case ("skip", 1), ("next", 1): return .skip
        case ("retry", 1), ("r", 1): return .retry
        case ("retry-now", 1): return .retryNow
        case ("cancel", 1): return .cancelRetry
        case ("reset", 1): return .reset
        case ("seek", 2):
            guard let seconds = Double(words[1]), seconds.isFinite else { return nil }
            return .seek(to: seconds)
        default: return nil
        }
    }

    /// Lines of stdin, read on their own thread (a blocking read must not hold a task's thread).
    static func lines() -> AsyncStream<String> {
        AsyncStream { continuation in
            Thread.detachNewThread {
                while let line = readLine(strippingNewline: true) { continuation.yield(line) }
                continuation.finish()
            }
        }
    }
}
