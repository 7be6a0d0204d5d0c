import Foundation
import PlayerCore
import Synchronization

/// Tells a host's circuit breaker how one streaming connection went, at connection time only:
/// the response head (or the failure before it) counts; whatever happens later in a long body
/// (a drop after an hour of radio) does not, because it says nothing about whether the host
/// accepts connections now, and the reconnect policy deals with it.
///
/// Why a type of its own: `HTTPByteSource` learns the outcome on event-loop callbacks, from the
/// player giving the connection up and from `close()`, in any order; this keeps "ask before connecting, report exactly
/// once" in one place and leaves the source's own locking alone. Without breakers it does nothing.
final class ConnectionHealth: Sendable {
    private let breakers: HostCircuitBreakers?
    private let url: URL
    private let connection = Mutex<HostCircuitBreakers.Connection?>(nil)

    init(breakers: HostCircuitBreakers?, url: URL) {
        self.breakers = breakers
        self.url = url
    }

    /// Asks the host's breaker before connecting; throws `circuitOpen` while it is open.
    func begin() throws(PlaybackError) {
        guard let breakers, let granted = try breakers.connection(to: url) else { return }
        connection.withLock { $0 = granted }
    }

    /// A response head arrived: the host answered. 408, 429 and 5xx count against it (it is
    /// overloaded or failing); any other status is an answer.
    func answered(status: Int) {
        guard let error = PlaybackError.from(httpStatus: status), error.isRetryable else {
            take()?.connected()
            return
        }
        take()?.failed(error)
    }

    /// The connection failed before any answer.
    func failed(_ error: PlaybackError) { take()?.failed(error) }

    /// Closed before any answer: counts for nothing.
    func abandoned() { take()?.abandoned() }

    private func take() -> HostCircuitBreakers.Connection? {
        connection.withLock { current in
            defer { current = nil }
            return current
        }
    }
}
