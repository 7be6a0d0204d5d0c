import Foundation
import Library
import PlayerCore
import Presentation

/// The library's reachability records as `tonearm errors` and the library screen show them: the
/// items the rule now judges usually unreachable, named as the listener knows them, and how runs
/// ended per class of host.
package enum LearnedRetryRows {
    package static func load(
        store: LibraryStore, rule: LearnedRetryRule, now: Date = Date()
    ) throws(PlaybackError) -> (rows: [ReachabilityReport.Row], endings: [HostClass: ReachabilityReport.Endings]) {
        let podcasts = Dictionary(uniqueKeysWithValues: try store.podcasts().map { ($0.id, $0.title) })
        let stations = Dictionary(uniqueKeysWithValues: try store.stations().map { ($0.id, $0.name) })
        let rows = try store.reachabilityEntries().compactMap { entry -> ReachabilityReport.Row? in
            let decision = rule.decide(entry.record, now: now, automatic: true)
            guard decision != .retryAsUsual else { return nil }
            let name: String? =
                switch entry.item {
                case .feed(let id): podcasts[id].map { "feed of \($0)" }
                case .downloads(let id): podcasts[id].map { "downloads of \($0)" }
                case .station(let id): stations[id].map { "station \($0)" }
                }
            return name.map { ReachabilityReport.Row(item: entry.item.key, name: $0, hostClass: entry.hostClass, record: entry.record, decision: decision) }
        }
        let endings = try store.runEndings().mapValues { ending in
            ReachabilityReport.Endings(
                firstTry: ending.succeededAtTry[1] ?? 0, afterRetries: ending.recoveredAfterRetries, never: ending.neverRecovered)
        }
        return (rows, endings)
    }
}
