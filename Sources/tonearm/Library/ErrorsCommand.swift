import ArgumentParser
import Foundation
import PlayerCore
import PlayerKit

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
        let retries = await orFail { () async throws(PlaybackError) in
            try await Self.wrap { try await library.retryStatistics.persistedSummary() }
        }
        if json {
            FileHandle.standardOutput.write(try Self.json(summary, retries: retries) + Data("\n".utf8))
            return
        }
        print(Self.table(summary))
        print("")
        print(Self.table(retries))
    }

    /// The analytics summary with one more key, `retryStatistics` (per operation: runs, attempts,
    /// retried runs, successes after a retry and the retry success rate).
    static func json(_ summary: ErrorAnalyticsSummary, retries: RetryStatisticsSummary) throws -> Data {
        let encoder = ErrorAnalytics.makeEncoder()
        var object = try JSONSerialization.jsonObject(with: try encoder.encode(summary)) as? [String: Any] ?? [:]
        object["retryStatistics"] = try JSONSerialization.jsonObject(with: try encoder.encode(retries))
        return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    }

    /// How retries fared per operation, across every run recorded in the library.
    static func table(_ retries: RetryStatisticsSummary) -> String {
        guard !retries.operations.isEmpty else { return "No network operations recorded yet." }
        let rate = { (fraction: Double?) in fraction.map { String(format: "%.0f %%", $0 * 100) } ?? "-" }
        return [
            TextTable.render(
                header: ["OPERATION", "RUNS", "ATTEMPTS", "RETRIED", "RECOVERED", "RETRY SUCCESS"],
                rows: retries.operations.map {
                    [$0.operation, "\($0.runs)", "\($0.attempts)", "\($0.retriedRuns)", "\($0.successesAfterRetry)", rate($0.retrySuccessRate)]
                }),
            "Retry success rate: \(rate(retries.retrySuccessRate)) of \(retries.retriedRuns) retried operations",
        ].joined(separator: "\n")
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
