import Foundation
import Synchronization

/// The servers (host and port) that answered `ICY 200 OK` in this process, so a reconnect to one
/// goes straight to the legacy path instead of first failing through AsyncHTTPClient: that saves
/// a round trip exactly when the listener is waiting for audio to come back. Bounded: the oldest
/// entry leaves when a new one would pass `capacity`.
enum LegacyIcyServers {
    static let capacity = 64
    private static let known = Mutex<[String]>([])

    static func remember(_ url: URL) {
        guard let key = key(url) else { return }
        known.withLock { list in
            list.removeAll { $0 == key }
            list.append(key)
            if list.count > capacity { list.removeFirst(list.count - capacity) }
        }
    }

    static func isKnown(_ url: URL) -> Bool {
        guard let key = key(url) else { return false }
        return known.withLock { $0.contains(key) }
    }

    private static func key(_ url: URL) -> String? {
        guard let host = url.host?.lowercased(), url.scheme?.lowercased() == "http" else { return nil }
        return "\(host):\(url.port ?? 80)"
    }
}
