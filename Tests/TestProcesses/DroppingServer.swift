import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A TCP server on 127.0.0.1 that accepts every connection and closes it at once, counting the
/// connections: a host that "accepts and drops", the worst case for a client that retries,
/// because each attempt costs a full connect. Binds port 0 and reads the port back.
///
/// SwiftNIO owns the sockets (each is closed once, by its channel): a hand-written accept loop
/// that closes its listener from `stop()` can, one loop later, accept on a descriptor number that
/// by then belongs to another test's server.
public final class DroppingServer: Sendable {
    public let port: Int
    public var baseURL: String { "http://127.0.0.1:\(port)" }
    private let group: MultiThreadedEventLoopGroup
    private let counted = Mutex(0)
    private let stopped = Mutex(false)

    /// Connections accepted so far.
    public var connections: Int { counted.withLock { $0 } }

    public init() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        self.group = group
        let counter = Counter()
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 128)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                counter.count()
                return channel.close()
            }
        do {
            port = try bootstrap.bind(host: "127.0.0.1", port: 0).wait().localAddress?.port ?? 0
        } catch {
            try? group.syncShutdownGracefully()
            throw error
        }
        counter.owner = self
    }

    deinit { stop() }

    /// Stops accepting and closes every socket, and waits until they are closed. Idempotent.
    public func stop() {
        let first = stopped.withLock { wasStopped in
            defer { wasStopped = true }
            return !wasStopped
        }
        if first { try? group.syncShutdownGracefully() }
    }

    fileprivate func count() { counted.withLock { $0 += 1 } }

    /// Lets the channel initializer, created before `self` exists, reach the counter.
    private final class Counter: @unchecked Sendable {
        weak var owner: DroppingServer?
        func count() { owner?.count() }
    }
}
