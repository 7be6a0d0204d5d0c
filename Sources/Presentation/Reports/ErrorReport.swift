import Foundation
import PlayerCore

/// The error analytics as `tonearm errors` prints them: plain-text tables, or JSON for scripts.
package enum ErrorReport {
    /// The analytics summary with one more key, `retryStatistics` (per operation: runs, attempts,
    /// retried runs, successes after a retry and the retry success rate).
    /// With `learned`, also `learnedRetries` (`ReachabilityReport.jsonObject`).
    package static func json(
        _ summary: ErrorAnalyticsSummary, retries: RetryStatisticsSummary, learned: [String: Any]? = nil
    ) throws -> Data {
        let encoder = ErrorAnalytics.makeEncoder()
        var object = try JSONSerialization.jsonObject(with: try encoder.encode(summary)) as? [String: Any] ?? [:]
        object["retryStatistics"] = try JSONSerialization.jsonObject(with: try encoder.encode(retries))
        if let learned { object["learnedRetries"] = learned }
        return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    }

    /// How retries fared per operation, across every run recorded in the library.
    package static func table(_ retries: RetryStatisticsSummary) -> String {
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

    /// The summary as plain text: totals, then the top types and operations, then resolutions.
    package static func table(_ summary: ErrorAnalyticsSummary) -> String {
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
