import ArgumentParser
import Foundation
import LibraryKit
import PlayerCore
import PlayerKit
import TerminalApp
import Presentation

/// `tonearm errors`: the summary of the locally recorded errors. The events hold an error
/// type, an operation, a user action, the retryable flag, a resolution and a time: no URL, title,
/// path or message. Nothing leaves the machine.
struct ErrorsCommand: LibrarySubcommand {
    static let configuration = CommandConfiguration(
        commandName: "errors", abstract: "Summarise the errors recorded on this machine (no personal data; nothing is sent anywhere).")

    @Flag(help: "Print the summary as JSON (the analytics summary's shape, with retry statistics).") var json = false
    @Option(help: "Write every recorded event to this file as a JSON array.") var export: String?
    @OptionGroup var logging: LoggingOptions

    func run(on library: LibraryContext) async throws {
        if let export {
            let data = await CommandFailure.orExit { () async throws(PlaybackError) in try await Self.wrap { try await library.analytics.exportJSON() } }
            CommandFailure.orExit { () throws(PlaybackError) in try UserFile.write(data, to: export) }
            print("Wrote \(try await library.analytics.events().count) events to \(export)")
            return
        }
        let summary = await CommandFailure.orExit { () async throws(PlaybackError) in try await Self.wrap { try await library.analytics.summary() } }
        let retries = await CommandFailure.orExit { () async throws(PlaybackError) in
            try await Self.wrap { try await library.retryStatistics.persistedSummary() }
        }
        let rule = TerminalConfig.learnedRetries().rule
        let learned = CommandFailure.orExit { () throws(PlaybackError) in try LearnedRetryRows.load(store: library.store, rule: rule) }
        if json {
            let object = ReachabilityReport.jsonObject(learned.rows, endings: learned.endings)
            FileHandle.standardOutput.write(try ErrorReport.json(summary, retries: retries, learned: object) + Data("\n".utf8))
            return
        }
        print(ErrorReport.table(summary))
        print("")
        print(ErrorReport.table(retries))
        print("")
        print(ReachabilityReport.table(learned.rows, endings: learned.endings, rule: rule))
    }

    /// Store reads throw untyped errors; the CLI reports them typed.
    static func wrap<T>(_ body: () async throws -> T) async throws(PlaybackError) -> T {
        do {
            return try await body()
        } catch {
            throw PlaybackError.from(error)
        }
    }
}
