import Logging
import PlayerCore

extension Logger {
    /// A logger that drops every record: the default wherever a logger is injected, so tests and
    /// programs that use the library print nothing unless they pass a logger of their own.
    public static let silent = Logger(label: "tonearm", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Records a failure where it became a `PlaybackError`, with its stable code, type and the
    /// original error's text (`underlying`), redacted for the record's level.
    package func failure(_ error: PlaybackError, _ message: Logger.Message, level: Logger.Level = .warning, fields: [String: String] = [:]) {
        log(level: level, message, metadata: {
            var metadata = Logger.Metadata()
            for (key, value) in LogFields.error(error, keepPaths: level <= .debug) { metadata[key] = .string(value) }
            for (key, value) in fields { metadata[key] = .string(value) }
            return metadata
        }())
    }
}
