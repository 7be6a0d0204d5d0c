import Foundation
import Logging
import PlayerKit
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A swift-log handler for a process whose stderr is the systemd journal: one line per record,
/// prefixed with its syslog priority as `<N>` (sd-daemon(3)), so `journalctl -p warning` filters
/// it. No timestamp: the journal keeps its own. Records pass the same redaction as the log file's.
package struct JournalLogHandler: LogHandler {
    package var logLevel: Logger.Level
    package var metadata: Logger.Metadata = [:]
    package var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let write: @Sendable (String) -> Void

    package init(label: String, level: Logger.Level, write: @escaping @Sendable (String) -> Void = JournalLogHandler.writeToStderr) {
        self.label = label
        self.logLevel = level
        self.write = write
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        let merged = event.metadata(over: metadata, provider: metadataProvider)
        write(Self.line(level: event.level, label: label, source: event.source, message: event.message.description, metadata: merged))
    }

    /// One record as the journal reads it: `<N>` then the file's line without its timestamp.
    package static func line(level: Logger.Level, label: String, source: String, message: String, metadata: Logger.Metadata) -> String {
        let formatted = LogLine.format(date: Date(), level: level, label: label, source: source, message: message, metadata: metadata)
        let untimed = formatted.split(separator: " ", maxSplits: 1).last.map(String.init) ?? formatted
        return "<\(priority(level))>\(untimed)"
    }

    /// swift-log's levels as syslog priorities (sd-daemon(3): 0 emergency ... 7 debug). `notice`
    /// keeps its own; trace has none below debug.
    package static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// One `write(2)` per line, so records of concurrent threads never interleave.
    package static let writeToStderr: @Sendable (String) -> Void = { line in
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        _ = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
