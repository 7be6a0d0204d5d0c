import ArgumentParser
import Foundation
import PlayerCore

/// `tonearm errors`: seed 004's summary of the locally recorded errors. The events hold an error
/// type, an operation, a user action, the retryable flag, a resolution and a time: no URL, title,
/// path or message. Nothing leaves the machine.
struct ErrorsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "errors", abstract: "Summarise the errors recorded on this machine (no personal data; nothing is sent anywhere).")

    @Flag(help: "Print the summary as JSON (seed 004's shape).") var json = false
    @Option(help: "Write every recorded event to this file as a JSON array.") var export: String?

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        logging.start()
        let library = await LibraryContext.open()
        if let export {
            let data = await orFail { () async throws(PlaybackError) in try await Self.wrap { try await library.analytics.exportJSON() } }
            try LocalFile.write(data, to: export)
            print("Wrote \(try await library.analytics.events().count) events to \(export)")
            return
        }
        let summary = await orFail { () async throws(PlaybackError) in try await Self.wrap { try await library.analytics.summary() } }
        if json {
            let data = try ErrorAnalytics.makeEncoder().encode(summary)
            FileHandle.standardOutput.write(data + Data("\n".utf8))
            return
        }
        print(Self.table(summary))
    }

    /// Store reads throw untyped errors; the CLI reports them typed.
    static func wrap<T>(_ body: () async throws -> T) async throws(PlaybackError) -> T {
        do {
            return try await body()
        } catch {
            throw PlaybackError.from(error)
        }
    }

    /// The summary as plain text: totals, then the top types and operations, then resolutions.
    static func table(_ summary: ErrorAnalyticsSummary) -> String {
        guard summary.totalErrors > 0 else { return "No errors recorded." }
        let percent = { (fraction: Double) in String(format: "%.0f %%", fraction * 100) }
        var lines = [
            TextTable.render(header: ["", ""], rows: [
                ["Total errors", "\(summary.totalErrors)"],
                ["Last 24 hours", "\(summary.errorsLast24Hours)"],
                ["Last 7 days", "\(summary.errorsLast7Days)"],
                ["Retried automatically", percent(summary.retryableErrorsPercentage)],
                ["Resolved by a retry", percent(summary.successRate)],
            ]).split(separator: "\n").dropFirst().joined(separator: "\n"),
            "",
            TextTable.render(header: ["ERROR TYPE", "COUNT"], rows: summary.topErrorTypes.map { [$0.type, "\($0.count)"] }),
            "",
            TextTable.render(header: ["OPERATION", "ERRORS"], rows: summary.topErrorOperations.map { [$0.operation, "\($0.errorCount)"] }),
        ]
        if !summary.resolutionStats.isEmpty {
            lines += [
                "",
                TextTable.render(
                    header: ["ERROR TYPE", "AUTO RETRY", "MANUAL RETRY", "UNRESOLVED"],
                    rows: summary.resolutionStats.sorted { $0.key < $1.key }.map { ["\($0.key)", "\($0.value.retry)", "\($0.value.manual)", "\($0.value.unresolved)"] }),
            ]
        }
        return lines.joined(separator: "\n")
    }
}
