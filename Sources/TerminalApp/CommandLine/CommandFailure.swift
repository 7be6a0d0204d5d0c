import Foundation
import Logging
import PlayerCore
import Presentation

/// How a command reports a failure: title, message and recovery suggestion on stderr, in the
/// locale's language. Every failure of a command passes here, so this is where it is logged with
/// its code, type and underlying error (`detail`, often a path of the user, only at `debug`).
package enum CommandFailure {
    /// Prints `error` and ends the program with status 1.
    /// - Parameter operation: what failed, which chooses the wording (a feed's dropped connection
    ///   is not a playback's).
    package static func exit(_ error: PlaybackError, detail: String? = nil, operation: ErrorOperation = .playback) -> Never {
        CommandLog.logger.log(level: .error, "command failed", metadata: metadata(error))
        if let detail { CommandLog.logger.debug("command failed: detail", metadata: ["detail": "\(LogRedaction.text(detail, keepPaths: true))"]) }
        let text = error.text(in: .current, for: operation)
        var out = "tonearm: \(text.title): \(text.message)\n\(text.recoverySuggestion)\n"
        if let detail { out += "(\(detail))\n" }
        FileHandle.standardError.write(Data(out.utf8))
        Foundation.exit(1)
    }

    /// Reports a failure of one item of a batch (one feed of an import) and lets the batch go on.
    package static func warn(_ error: PlaybackError, about item: String, operation: ErrorOperation = .playback) {
        CommandLog.logger.warning("item failed", metadata: metadata(error))
        let text = error.text(in: .current, for: operation)
        let name = TextSanitizer.singleLine(item, maxLength: 120)
        FileHandle.standardError.write(Data("tonearm: \(name): \(text.title): \(text.message) \(text.recoverySuggestion)\n".utf8))
    }

    /// Runs `body`, or reports its typed error and exits 1: a command has nothing useful to do
    /// after a failed read.
    package static func orExit<T>(_ body: () throws(PlaybackError) -> T) -> T {
        do {
            return try body()
        } catch {
            exit(error)
        }
    }

    /// The async form of `orExit`.
    package static func orExit<T>(_ body: () async throws(PlaybackError) -> T) async -> T {
        do {
            return try await body()
        } catch {
            exit(error)
        }
    }

    /// An error's fields for a record above `debug`: code, type, HTTP status, redacted underlying.
    static func metadata(_ error: PlaybackError) -> Logger.Metadata {
        var metadata = Logger.Metadata()
        for (key, value) in LogFields.error(error) { metadata[key] = .string(value) }
        return metadata
    }
}
