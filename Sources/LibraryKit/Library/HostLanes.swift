import Foundation
import PlayerCore
import PlayerKit

/// How a batch of requests (the feeds of an OPML import) is split into lanes: each lane runs its
/// requests one after another, and one host never gets more than `perHost` lanes.
///
/// Why: a batch that fetches twenty feeds of one host four at a time can have four connections
/// under way when that host's breaker opens, so a dead host sees more attempts than the breaker
/// promises. With at most `perHost` lanes per host, at most `perHost - 1` attempts can be in
/// flight past the one that opened it. Other hosts keep their own lanes, so one slow host does
/// not hold the rest of the batch back. A pure function, so the plan is tested without a network.
enum HostLanes {
    /// Indices of `urls`, grouped into lanes in document order: a host's items are dealt round
    /// robin into at most `perHost` lanes; lanes are ordered by their first item. A URL without a
    /// host gets a lane of its own.
    static func lanes(for urls: [URL], perHost: Int = ResilienceDefaults.batchRequestsPerHost) -> [[Int]] {
        let perHost = max(1, perHost)
        var lanes: [[Int]] = []
        var hostLanes: [String: (lanes: [Int], next: Int)] = [:]
        for (index, url) in urls.enumerated() {
            guard let host = HostCircuitBreakers.host(of: url) else {
                lanes.append([index])
                continue
            }
            var entry = hostLanes[host] ?? ([], 0)
            if entry.lanes.count < perHost {
                entry.lanes.append(lanes.count)
                lanes.append([index])
            } else {
                lanes[entry.lanes[entry.next % perHost]].append(index)
            }
            entry.next += 1
            hostLanes[host] = entry
        }
        return lanes
    }
}
