import Foundation
import Logging
import Synchronization

/// Hears whether swift-otel's one export failed. Its periodic reader catches the exporter's error
/// and only logs it (a warning), so the diagnostic logger is the one place the outcome shows; this
/// handler notes any warning or worse and passes every record on to Tonearm's log at `debug`, so
/// an unreachable endpoint never shows up louder than that.
final class ExportFailureWatch: Sendable {
    private let problems = Mutex<[String]>([])
    private let forward: Logger

    init(forwardingTo logger: Logger) {
        self.forward = logger
    }

    /// What went wrong, in swift-otel's words (redacted by the log handler that receives them).
    var failures: [String] { problems.withLock { $0 } }

    var logger: Logger {
        Logger(label: "tonearm.analytics.otlp") { _ in Handler(watch: self) }
    }

    fileprivate func note(_ level: Logger.Level, _ message: String, error: (any Error)?) {
        let text = error.map { "\(message) \(String(describing: $0))" } ?? message
        if level >= .warning { problems.withLock { $0.append(text) } }
        forward.debug("otlp export: \(text)")
    }

    private struct Handler: LogHandler {
        let watch: ExportFailureWatch
        var logLevel: Logger.Level = .warning
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            watch.note(event.level, event.message.description, error: event.error)
        }
    }
}
