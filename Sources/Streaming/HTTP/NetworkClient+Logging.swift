import Foundation
import Logging
import PlayerCore

/// The records of `NetworkClient`: one pair per attempt (request, then answer or mapped error) at
/// `debug`, and each retry it schedules at `notice`. Kept beside the client so its request path
/// only names the two moments.
///
/// Privacy: URLs are written as `LogRedaction` renders them (the cache-busting query is dropped
/// with the rest of the query); the operation name is a stable identifier, never a title.
extension NetworkClient {
    /// Runs one attempt of a request for `url`, recording what went out, what answered (status,
    /// bytes, seconds) or the error it ended with, as `HTTPErrorMapping` maps it. With
    /// `hidingPath` only the host is written (a sync server's paths name the user).
    static func logged(
        _ url: URL, method: String = "GET", hidingPath: Bool = false, operation: String, logger: Logger,
        _ body: @Sendable () async throws -> NetworkResponse
    ) async throws -> NetworkResponse {
        let host = LogRedaction.host(url) ?? "?"
        let shown = hidingPath ? "\(url.scheme ?? "http")://\(host)/…" : LogRedaction.url(url)
        let request: [String: String] = ["method": method, "host": host, "url": shown, "operation": operation]
        logger.debug("HTTP request", metadata: metadata(request))
        let stopwatch = Stopwatch()
        do {
            let response = try await body()
            logger.debug(
                "HTTP response",
                metadata: metadata(request.merging([
                    "status": String(response.status), "bytes": String(response.body.count),
                    "seconds": LogFields.seconds(stopwatch.seconds),
                ]) { a, _ in a }))
            return response
        } catch {
            logger.mappedError(
                HTTPErrorMapping.map(error), "HTTP request failed",
                fields: request.merging(["seconds": LogFields.seconds(stopwatch.seconds)]) { a, _ in a })
            throw error
        }
    }

    /// `onRetry`, preceded by a `notice` record of the decision (attempt, delay, cause).
    static func loggingRetries(
        _ onRetry: @escaping @Sendable (RetryAttemptReport) -> Void, logger: Logger
    ) -> @Sendable (RetryAttemptReport) -> Void {
        { report in
            logger.mappedError(
                report.cause, level: .notice, "HTTP retry scheduled",
                fields: [
                    "operation": report.operation, "attempt": String(report.attempt), "maxAttempts": String(report.maxAttempts),
                    "inSeconds": LogFields.seconds(report.delay),
                ])
            onRetry(report)
        }
    }

    static func metadata(_ fields: [String: String]) -> Logger.Metadata {
        var metadata = Logger.Metadata()
        for (key, value) in fields { metadata[key] = .string(value) }
        return metadata
    }
}
