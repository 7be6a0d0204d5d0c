import Foundation
import PlayerCore

/// How the command line reports a failure: title, message and recovery suggestion on stderr, in
/// the locale's language, then exit status 1.
enum ErrorOutput {
    static func fail(_ error: PlaybackError, detail: String? = nil) -> Never {
        let text = error.text(in: .current)
        var out = "tonearm: \(text.title): \(text.message)\n\(text.recoverySuggestion)\n"
        if let detail { out += "(\(detail))\n" }
        FileHandle.standardError.write(Data(out.utf8))
        Foundation.exit(1)
    }
}
