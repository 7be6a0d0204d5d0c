import Foundation
import PlayerCore

/// What an answer outside 2xx means, for every request: the status's typed error (retried or not,
/// as `PlaybackError.from(httpStatus:)` says), with the server's `Retry-After`.
enum HTTPRefusal {
    /// - Parameter now: the wall clock an HTTP-date `Retry-After` is read against (injected by the
    ///   caller: the player's reconnect policy only honours seconds).
    static func error(status: Int, retryAfter header: String?, now: Date) -> PlaybackError {
        let retryAfter = header.flatMap { RetryAfter.parse($0) }
        return PlaybackError.from(httpStatus: status, retryAfter: retryAfter.map { relative($0, now: now) })
            ?? PlaybackError(.httpClientError, httpStatus: status, underlying: "unexpected HTTP status \(status)")
    }

    /// The state machine only honours seconds: an HTTP-date becomes the seconds from `now`.
    static func relative(_ retryAfter: RetryAfter, now: Date) -> RetryAfter {
        switch retryAfter {
        case .seconds: retryAfter
        case .date: .seconds(retryAfter.delay(now: now))
        }
    }
}
