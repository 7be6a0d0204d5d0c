import NIOCore
import Synchronization

/// The clients connected now, bounded by `MPDLimits.maxConnections`, so `stop` can close them.
final class MPDConnections: Sendable {
    private let limit: Int
    private let channels = Mutex<[ObjectIdentifier: any Channel]>([:])

    init(limit: Int) { self.limit = limit }

    /// Counts the channel in, or says no when the limit is reached.
    func admit(_ channel: any Channel) -> Bool {
        channels.withLock { open in
            guard open.count < limit else { return false }
            open[ObjectIdentifier(channel)] = channel
            return true
        }
    }

    func remove(_ channel: any Channel) {
        _ = channels.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    func closeAll() async {
        let open = channels.withLock { Array($0.values) }
        for channel in open { try? await channel.close() }
    }
}
