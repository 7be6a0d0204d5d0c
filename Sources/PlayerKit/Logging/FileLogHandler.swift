import Foundation
import Logging
import PlayerCore

/// A swift-log handler that writes one line per record to a `RotatingLogFile`:
/// `2026-11-24T16:54:47.123Z warning tonearm [AudioEngine] playback fault code=2004 errorType=Network.connectionLost`.
///
/// Why hand-written: swift-log itself has no file backend, and none of the packages that add one
/// are available to this project; see `RotatingLogFile` for the file's rules.
///
/// The handler applies `LogRedaction` to the message, every metadata value and an attached error
/// once more, whatever the call site did: URLs lose user info, query and fragment at every level,
/// and file paths are kept only in `debug` and `trace` records. Call sites stay responsible for
/// never putting titles or feed names in records above `debug`.
package struct FileLogHandler: LogHandler {
    package var logLevel: Logger.Level
    package var metadata: Logger.Metadata = [:]
    package var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let file: RotatingLogFile

    package init(label: String, file: RotatingLogFile, level: Logger.Level = .warning, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.file = file
        self.logLevel = level
        self.metadataProvider = metadataProvider
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        let merged = event.metadata(over: metadata, provider: metadataProvider)
        file.write(
            LogLine.format(
                date: Date(), level: event.level, label: label, source: event.source, message: event.message.description, metadata: merged))
    }
}

/// How one record is written as text; pure, so the format and its redaction are tested directly.
package enum LogLine {
    /// One line: ISO-8601 UTC time with milliseconds, level, label, `[source]`, message, then
    /// `key=value` metadata sorted by key (values with spaces or quotes are quoted). Message and
    /// values pass `LogRedaction.text`, with paths kept only at `debug` and `trace`.
    package static func format(
        date: Date, level: Logger.Level, label: String, source: String, message: String, metadata: Logger.Metadata
    ) -> String {
        let keepPaths = level <= .debug
        var line = "\(timestamp(date)) \(level.rawValue) \(label) [\(source)] \(LogRedaction.text(message, keepPaths: keepPaths))"
        for key in metadata.keys.sorted() {
            guard let value = metadata[key] else { continue }
            line += " \(LogRedaction.text(key, keepPaths: keepPaths))=\(quoted(LogRedaction.text(flatten(value), keepPaths: keepPaths)))"
        }
        return line
    }

    /// `2026-11-24T16:54:47.123Z`.
    package static func timestamp(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(milliseconds.quotientAndRemainder(dividingBy: 1000).quotient)
        let fraction = Int(milliseconds - Int64(seconds) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), fraction)
    }

    private static func flatten(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let text): text
        case .stringConvertible(let convertible): convertible.description
        case .array(let values): "[" + values.map(flatten).joined(separator: ",") + "]"
        case .dictionary(let values):
            "{" + values.keys.sorted().map { "\($0):\(values[$0].map(flatten) ?? "")" }.joined(separator: ",") + "}"
        }
    }

    private static func quoted(_ value: String) -> String {
        guard value.isEmpty || value.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
