import NIOCore
import NIOPosix
import Synchronization

/// The listening half of the tests' small SwiftNIO servers: one event loop, one listener on
/// 127.0.0.1 and a port the kernel chose, and a `stop()` that returns only once every socket is
/// closed. SwiftNIO owns the sockets, so each is closed exactly once.
final class LoopbackNIOServer: Sendable {
    let port: Int
    private let group: MultiThreadedEventLoopGroup
    private let stopped = Mutex(false)

    /// Listens at once; `accepted` sets up each accepted connection's channel.
    init(backlog: Int32 = 256, accepted: @escaping @Sendable (any Channel) -> EventLoopFuture<Void>) throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        self.group = group
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: backlog)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer(accepted)
        do {
            port = try bootstrap.bind(host: "127.0.0.1", port: 0).wait().localAddress?.port ?? 0
        } catch {
            try? group.syncShutdownGracefully()
            throw error
        }
    }

    deinit { stop() }

    /// Closes the listener and every connection, and waits until they are closed. Idempotent.
    func stop() {
        let first = stopped.withLock { wasStopped in
            defer { wasStopped = true }
            return !wasStopped
        }
        if first { try? group.syncShutdownGracefully() }
    }
}
