import Foundation
import PlayerCore

/// The reconnect countdown: "Reconnecting in 3 s (attempt 2 of 8)", or "Waiting for network"
/// while no attempt is scheduled.
package struct ReconnectViewState: Sendable, Hashable, Codable {
    package let attempt: Int
    package let maxAttempts: Int
    /// Whole seconds until the next attempt, rounded up (2.1 s reads 3); nil when none is scheduled
    /// or the context has no `now`.
    package let secondsRemaining: Int?
    /// No attempt is scheduled: the network is down.
    package let isWaitingForNetwork: Bool
    /// `state.statusText(in:now:)`.
    package let text: String
    /// Why it reconnects, in plain words.
    package let causeMessage: String

    package init(
        attempt: Int, maxAttempts: Int, secondsRemaining: Int?, isWaitingForNetwork: Bool, text: String,
        causeMessage: String
    ) {
        self.attempt = attempt
        self.maxAttempts = maxAttempts
        self.secondsRemaining = secondsRemaining
        self.isWaitingForNetwork = isWaitingForNetwork
        self.text = text
        self.causeMessage = causeMessage
    }

    /// Built for `reconnecting` only.
    package init?(state: PlayerState, context: PlaybackContext) {
        guard case .reconnecting(_, let attempt, let maxAttempts, let at, let cause) = state else { return nil }
        let remaining = context.now.flatMap { state.secondsUntilRetry(now: $0) }.map { max(0, Int($0.rounded(.up))) }
        self.init(
            attempt: attempt, maxAttempts: maxAttempts, secondsRemaining: remaining, isWaitingForNetwork: at == nil,
            text: state.statusText(in: context.language, now: context.now),
            causeMessage: cause.message(in: context.language))
    }
}
