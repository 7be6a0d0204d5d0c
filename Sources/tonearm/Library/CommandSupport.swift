import ArgumentParser
import Foundation
import Logging
import PlayerCore
import Presentation

/// Runs `body`, or prints its typed error and exits 1: list commands have nothing useful to do
/// after a failed read.
func orFail<T>(_ body: () throws(PlaybackError) -> T) -> T {
    do {
        return try body()
    } catch {
        ErrorOutput.fail(error)
    }
}

/// The async form of `orFail`.
func orFail<T>(_ body: () async throws(PlaybackError) -> T) async -> T {
    do {
        return try await body()
    } catch {
        ErrorOutput.fail(error)
    }
}

extension ErrorOutput {
    /// Reports a failure of one item of a batch (one feed of an import) and lets the batch go on.
    static func warn(_ error: PlaybackError, about item: String, operation: ErrorOperation = .playback) {
        CLILog.logger.warning("item failed", metadata: metadata(error))
        let text = error.text(in: .current, for: operation)
        let name = TextSanitizer.singleLine(item, maxLength: 120)
        FileHandle.standardError.write(Data("tonearm: \(name): \(text.title): \(text.message) \(text.recoverySuggestion)\n".utf8))
    }
}

/// The http(s) URL given for `what` on the command line, or a usage error.
func webURL(_ text: String, what: String) throws -> URL {
    guard let url = WebAddress.parse(text) else { throw ValidationError("\(what) must be an http(s) URL") }
    return url
}
