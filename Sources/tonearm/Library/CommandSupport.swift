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

/// http(s) URLs given on the command line.
enum WebURL {
    static func parse(_ text: String, what: String) throws -> URL {
        guard let url = URL(string: text.trimmingCharacters(in: .whitespaces)),
            let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host?.isEmpty == false
        else {
            throw ValidationError("\(what) must be an http(s) URL")
        }
        return url
    }

    /// Host and path only: a query or user info may hold a token, which never goes to a terminal log.
    static func display(_ url: URL) -> String {
        TextSanitizer.singleLine("\(url.host ?? "")\(url.path)", maxLength: 120)
    }
}

/// Reading and writing the user's own files (OPML, playlists, exports) with typed errors.
enum LocalFile {
    static func read(_ path: String, maxBytes: Int) throws -> Data {
        let url = URL(fileURLWithPath: path)
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            if let size = attributes[.size] as? NSNumber, size.intValue > maxBytes {
                ErrorOutput.fail(PlaybackError(.documentTooLarge, underlying: "\(size) bytes"))
            }
            return try Data(contentsOf: url)
        } catch {
            ErrorOutput.fail(PlaybackError.from(error))
        }
    }

    static func write(_ data: Data, to path: String) throws {
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            ErrorOutput.fail(PlaybackError.from(error))
        }
    }
}
