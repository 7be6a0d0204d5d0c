import Foundation
import NIOCore
import Synchronization

/// A TCP server on 127.0.0.1 that accepts every connection and closes it at once, counting the
/// connections: a host that "accepts and drops", the worst case for a client that retries,
/// because each attempt costs a full connect. Binds port 0 and reads the port back.
///
/// SwiftNIO owns the sockets (each is closed once, by its channel): a hand-written accept loop
/// that closes its listener from `stop()` can, one loop later, accept on a descriptor number that
/// by then belongs to another test's server.
package final class DroppingServer: Sendable {
    package var port: Int { server.port }
    package var baseURL: String { "http://127.0.0.1:\(port)" }
    private let server: LoopbackNIOServer
    private let counted: Counter

    /// Connections accepted so far.
    package var connections: Int { counted.value }

    package init() throws {
        let counter = Counter()
        counted = counter
        server = try LoopbackNIOServer(backlog: 128) { channel in
            counter.add()
            return channel.close()
        }
    }

    /// Stops accepting and closes every socket, and waits until they are closed. Idempotent.
    package func stop() { server.stop() }

    private final class Counter: Sendable {
        private let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
        func add() { count.withLock { $0 += 1 } }
    }
}
