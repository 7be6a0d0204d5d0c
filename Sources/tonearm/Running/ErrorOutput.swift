import Foundation
import PlayerCore

/// How the command line reports a failure: title, message and recovery suggestion on stderr, in
/// the locale's language, then exit status 1.
enum ErrorOutput {
    /// - Parameter operation: what failed, which chooses the wording (a feed's dropped connection
    ///   is not a playback's).
    static func fail(_ error: PlaybackError, detail: String? = nil, operation: ErrorOperation = .playback) -> Never {
        let text = error.text(in: .current, for: operation)
        var out = "tonearm: \(text.title): \(text.message)\n\(text.recoverySuggestion)\n"
        if let detail { out += "(\(detail))\n" }
        FileHandle.standardError.write(Data(out.utf8))
        Foundation.exit(1)
    }
}
