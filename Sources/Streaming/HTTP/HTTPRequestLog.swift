import Foundation
import Logging
import PlayerCore
import Synchronization

/// The `debug` records of one HTTP request: when it went out, what answered, and how it ended
/// (bytes, seconds, the mapped error). A separate type so the byte sources only say where each
/// moment happens, and so a request that ends several ways at once (a failure racing a close) is
/// reported once.
///
/// Privacy: the URL is written as `LogRedaction` renders it (no user info, query or fragment),
/// and only at `debug`; errors carry their code, type and redacted `underlying`.
final class HTTPRequestLog: Sendable {
    private struct Progress {
        var stopwatch: Stopwatch?
        var status: Int?
        var ended = false
    }

    private let logger: Logger
    private let method: String
    private let url: URL
    private let progress = Mutex(Progress())

    init(logger: Logger, method: String = "GET", url: URL) {
        self.logger = logger
        self.method = method
        self.url = url
    }

    /// The request went out (`range`: the first byte asked for, if not 0).
    func started(range: Int64? = nil) {
        progress.withLock { $0.stopwatch = Stopwatch() }
        logger.debug("HTTP request", metadata: metadata(range.map { ["range": "bytes=\($0)-"] } ?? [:]))
    }

    /// The server answered `ICY 200 OK` (SHOUTcast v1): the request goes out again on the legacy path.
    func legacyServer(known: Bool) {
        logger.debug("HTTP request on the legacy ICY path", metadata: metadata(["reason": known ? "known legacy server" : "ICY status line"]))
    }

    /// The response head arrived.
    func responded(status: Int) {
        let stopwatch = progress.withLock { (state) -> Stopwatch? in
            state.status = status
            return state.stopwatch
        }
        logger.debug("HTTP response", metadata: metadata(["status": String(status), "seconds": Self.seconds(stopwatch)]))
    }

    /// The request is over: the body ended (`error` nil), failed, or was closed by its owner.
    func ended(bytes: Int, error: PlaybackError? = nil, closed: Bool = false) {
        let report = progress.withLock { (state) -> (Stopwatch?, Int?)? in
            guard !state.ended else { return nil }
            state.ended = true
            return (state.stopwatch, state.status)
        }
        guard let report else { return }
        let (stopwatch, status) = report
        var fields = ["bytes": String(bytes), "seconds": Self.seconds(stopwatch), "outcome": closed ? "closed" : (error == nil ? "end" : "failed")]
        if let status { fields["status"] = String(status) }
        if let error {
            fields.merge(LogFields.error(error, keepPaths: true)) { a, _ in a }
        }
        logger.debug("HTTP request ended", metadata: metadata(fields))
    }

    private func metadata(_ fields: [String: String]) -> Logger.Metadata {
        var metadata: Logger.Metadata = [
            "method": .string(method), "host": .string(LogRedaction.host(url) ?? "?"), "url": .string(LogRedaction.url(url)),
        ]
        for (key, value) in fields { metadata[key] = .string(value) }
        return metadata
    }

    /// Seconds since the request went out, or "?" before it did.
    private static func seconds(_ stopwatch: Stopwatch?) -> String {
        stopwatch.map { LogFields.seconds($0.seconds) } ?? "?"
    }

}

extension Logger {
    /// Records what an episode's source decided after a failed request at `offset`: a new request
    /// after `delay` seconds (`notice`), or none (`delay` nil): `warning` when the attempts ran out,
    /// `debug` when the error is not one to retry (the player records it where it arrives).
    func resumeDecision(_ error: PlaybackError, failures: Int, offset: Int64, delay: Double?) {
        let fields = ["failures": String(failures), "offset": String(offset)]
        if let delay {
            mappedError(error, level: .notice, "episode request resumes", fields: fields.merging(["inSeconds": LogFields.seconds(delay)]) { a, _ in a })
        } else {
            mappedError(error, level: error.isRetryable ? .warning : .debug, "episode request given up", fields: fields)
        }
    }

    /// Records one mapped transport or HTTP error where it was mapped, with what the mapping kept
    /// of the original (`underlying`): the one place a report can show why a request failed.
    package func mappedError(_ error: PlaybackError, level: Logger.Level = .debug, _ message: Logger.Message, fields: [String: String] = [:]) {
        log(level: level, message, metadata: {
            var metadata = Logger.Metadata()
            for (key, value) in LogFields.error(error, keepPaths: level <= .debug) { metadata[key] = .string(value) }
            for (key, value) in fields { metadata[key] = .string(value) }
            return metadata
        }())
    }
}
