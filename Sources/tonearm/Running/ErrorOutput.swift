import Foundation
import Logging
import PlayerCore
import Presentation

/// How the command line reports a failure: title, message and recovery suggestion on stderr, in
/// the locale's language, then exit status 1. Every failure of a command passes here, so this is
/// where it is logged with its code, type and underlying error (`detail`, often a path of the
/// user, only at `debug`).
enum ErrorOutput {
    /// - Parameter operation: what failed, which chooses the wording (a feed's dropped connection
    ///   is not a playback's).
    static func fail(_ error: PlaybackError, detail: String? = nil, operation: ErrorOperation = .playback) -> Never {
        CLILog.logger.log(level: .error, "command failed", metadata: ErrorOutput.metadata(error))
        if let detail { CLILog.logger.debug("command failed: detail", metadata: ["detail": "\(LogRedaction.text(detail, keepPaths: true))"]) }
        let text = error.text(in: .current, for: operation)
        var out = "tonearm: \(text.title): \(text.message)\n\(text.recoverySuggestion)\n"
        if let detail { out += "(\(detail))\n" }
        FileHandle.standardError.write(Data(out.utf8))
        Foundation.exit(1)
    }
}

extension ErrorOutput {
    /// An error's fields for a record above `debug`: code, type, HTTP status, redacted underlying.
    static func metadata(_ error: PlaybackError) -> Logger.Metadata {
        var metadata = Logger.Metadata()
        for (key, value) in LogFields.error(error) { metadata[key] = .string(value) }
        return metadata
    }
}
