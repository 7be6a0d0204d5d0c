import Foundation
import Logging
import Synchronization

/// Every record a `Logger` emits, kept raw (no formatting, no redaction), so a test sees exactly
/// what the call sites handed to the logging system.
final class LogCapture: Sendable {
    struct Record: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: [String: String]
        let source: String

        /// The message, every metadata key and value, and the source: everything a handler could write.
        var allText: String {
            ([message, source] + metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
        }
    }

    private let records = Mutex<[Record]>([])

    var all: [Record] { records.withLock { $0 } }

    /// A logger at `level` whose records land here.
    func logger(level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: "tonearm.test") { _ in Handler(capture: self) }
        logger.logLevel = level
        return logger
    }

    fileprivate func append(_ record: Record) { records.withLock { $0.append(record) } }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            var merged: [String: String] = [:]
            for (key, value) in metadata { merged[key] = value.description }
            for (key, value) in event.metadata ?? [:] { merged[key] = value.description }
            if let error = event.error { merged["error"] = String(describing: error) }
            capture.append(Record(level: event.level, message: event.message.description, metadata: merged, source: event.source))
        }
    }
}
