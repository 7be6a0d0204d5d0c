import Foundation
import Library
import LibraryKit
import PlayerCore
import PlayerKit
import Presentation

/// Opening the library from a command: its failure or a kept-aside database is said on stderr.
extension LibraryContext {
    /// Opens the library or exits with its typed error.
    package static func openForCommand() async -> LibraryContext {
        do throws(PlaybackError) {
            return try await openedForCommand()
        } catch {
            CommandFailure.exit(error, detail: error.code == .libraryUnavailable ? LibraryPaths.dataDirectory().path : nil)
        }
    }

    /// Opens the library, or nil (with a warning) so playback can go on without it.
    package static func openForPlayback() async -> LibraryContext? {
        do throws(PlaybackError) {
            return try await openedForCommand()
        } catch {
            let text = error.text(in: .current)
            FileHandle.standardError.write(Data("tonearm: \(text.title): \(text.message) Errors are not recorded this time.\n".utf8))
            return nil
        }
    }

    /// Runs one library operation; a failure is recorded in the error analytics like every other
    /// error, printed with its explanation, and ends the command (status 1).
    @discardableResult
    package func attempt<T>(_ operation: AnalyticsIdentifier, _ body: () async throws(PlaybackError) -> T) async -> T {
        do {
            return try await body()
        } catch {
            await analytics.record(error, operation: operation)
            CommandFailure.exit(error)
        }
    }

    private static func openedForCommand() async throws(PlaybackError) -> LibraryContext {
        let (rule, warning) = TerminalConfig.learnedRetries()
        if let warning { CommandLog.logger.warning("configuration: \(warning)") }
        let library = try await LibraryContext.open(learnedRetries: rule, logger: CommandLog.logger)
        if let recovery = library.recovery {
            let text = recovery.error.text(in: .current)
            CommandLog.logger.warning("library: damaged database kept aside", metadata: CommandFailure.metadata(recovery.error))
            FileHandle.standardError.write(
                Data("tonearm: \(text.title): \(text.message)\n\(text.recoverySuggestion)\n(kept at \(recovery.movedAsideTo.path))\n".utf8))
        }
        return library
    }
}
