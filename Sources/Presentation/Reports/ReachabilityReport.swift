import Foundation
import PlayerCore

/// What Tonearm has learnt about reaching the library's feeds, downloads and stations, as
/// `tonearm errors` prints it: the items it now treats as usually unreachable, and how runs ended
/// on each class of host.
package enum ReachabilityReport {
    /// One item judged usually unreachable.
    package struct Row: Sendable, Hashable {
        /// The item's key (`feed:3`, `downloads:3`, `station:7`): no title, for JSON.
        package var item: String
        /// What the listener calls it: "feed of <podcast>", "downloads of <podcast>", "station <name>".
        package var name: String
        package var hostClass: HostClass
        package var record: ReachabilityRecord
        package var decision: LearnedRetryDecision

        package init(item: String, name: String, hostClass: HostClass, record: ReachabilityRecord, decision: LearnedRetryDecision) {
            self.item = item
            self.name = name
            self.hostClass = hostClass
            self.record = record
            self.decision = decision
        }
    }

    /// How runs ended on one class of hosts.
    package struct Endings: Sendable, Hashable {
        package var firstTry: Int
        package var afterRetries: Int
        package var never: Int

        package init(firstTry: Int, afterRetries: Int, never: Int) {
            self.firstTry = firstTry
            self.afterRetries = afterRetries
            self.never = never
        }
    }

    /// The same for scripts: items by key (never a title), dates as ISO 8601.
    package static func jsonObject(_ rows: [Row], endings: [HostClass: Endings]) -> [String: Any] {
        let iso = ISO8601DateFormatter()
        return [
            "usuallyUnreachable": rows.map { row -> [String: Any] in
                var object: [String: Any] = [
                    "item": row.item, "hostClass": row.hostClass.rawValue, "failedRuns": row.record.consecutiveFailures,
                    "lastError": row.record.lastError?.typeName ?? NSNull(),
                ]
                object["since"] = row.decision.unreachableSince.map(iso.string(from:)) ?? NSNull()
                if case .skip(_, let nextTry) = row.decision { object["nextAutomaticTry"] = iso.string(from: nextTry) }
                return object
            },
            "runEndings": Dictionary(uniqueKeysWithValues: endings.map { hostClass, ending in
                (hostClass.rawValue, ["firstTry": ending.firstTry, "afterRetries": ending.afterRetries, "never": ending.never])
            }),
        ]
    }

    package static func table(_ rows: [Row], endings: [HostClass: Endings], rule: LearnedRetryRule) -> String {
        var lines: [String] = []
        let days = rule.days == rule.days.rounded() ? "\(Int(rule.days))" : "\(rule.days)"
        if rows.isEmpty {
            lines.append("Nothing is usually unreachable (after \(rule.failedRuns) failed runs over \(days) days it would be).")
        } else {
            lines.append("Usually unreachable: tried once when you ask, left out of automatic work until its daily try.")
            lines.append(
                TextTable.render(
                    header: ["ITEM", "SINCE", "FAILED RUNS", "LAST ERROR", "WHERE", "NEXT AUTOMATIC TRY"],
                    rows: rows.map { row in
                        let next: String =
                            switch row.decision {
                            case .skip(_, let nextTry): EpisodeText.day(nextTry)
                            case .tryOnce: "next run"
                            case .retryAsUsual: "-"
                            }
                        return [
                            row.name, row.decision.unreachableSince.map(EpisodeText.day) ?? "-", "\(row.record.consecutiveFailures)",
                            row.record.lastError?.typeName ?? "-", row.hostClass.rawValue, next,
                        ]
                    }))
        }
        if !endings.isEmpty {
            lines.append("")
            lines.append(
                TextTable.render(
                    header: ["SERVERS", "WORKED FIRST TRY", "RECOVERED AFTER RETRIES", "NEVER RECOVERED"],
                    rows: HostClass.allCases.compactMap { hostClass in
                        endings[hostClass].map { [hostClass.rawValue, "\($0.firstTry)", "\($0.afterRetries)", "\($0.never)"] }
                    }))
        }
        return lines.joined(separator: "\n")
    }
}
