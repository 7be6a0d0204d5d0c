import Logging
import MPDProtocol
import NIOCore
import NIOPosix

/// What the server listens on and whom it lets in.
public struct MPDServerConfiguration: Sendable, Hashable {
    public var endpoints: [MPDEndpoint]
    /// Clients must send it (`password`) before anything but `ping`, `close`, `commands`,
    /// `notcommands`; nil or empty lets everyone in, which only local endpoints allow.
    public var password: String?
    public var limits: MPDLimits

    public init(endpoints: [MPDEndpoint], password: String? = nil, limits: MPDLimits = .standard) {
        self.endpoints = endpoints
        self.password = password
        self.limits = limits
    }
}

/// The MPD server: listens on TCP addresses and Unix sockets, and answers each client from one
/// `MPDBackend`. `start` binds everything or nothing; `stop` closes the listeners and every
/// client and removes the socket files it created.
public actor MPDServer {
    private let backend: any MPDBackend
    private let configuration: MPDServerConfiguration
    private let logger: Logger
    private let group: any EventLoopGroup
    private let connections: MPDConnections
    /// The client-to-client messages, shared by every client of every endpoint.
    private let messages = MPDMessageExchange()
    private var listeners: [any Channel] = []
    private var socketFiles: [String] = []
    /// Where the server listens, with the port the system chose for a TCP port 0.
    public private(set) var listeningAddresses: [MPDEndpoint] = []

    public init(
        backend: any MPDBackend, configuration: MPDServerConfiguration, logger: Logger,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.backend = backend
        var configuration = configuration
        if configuration.password?.isEmpty == true { configuration.password = nil }
        self.configuration = configuration
        self.logger = logger
        self.group = group
        self.connections = MPDConnections(limit: configuration.limits.maxConnections)
    }

    /// Binds every endpoint, after refusing exposed ones without a password. Returns the
    /// addresses actually bound.
    @discardableResult
    public func start() async throws(MPDServerError) -> [MPDEndpoint] {
        guard listeners.isEmpty else { throw .alreadyStarted }
        do {
            try MPDListenPolicy.check(configuration.endpoints, password: configuration.password)
        } catch {
            logger.warning("MPD server refused to start", metadata: ["reason": "\(error)"])
            throw error
        }
        do {
            for endpoint in configuration.endpoints {
                try await bind(endpoint)
            }
        } catch {
            await stop()
            throw error
        }
        for address in listeningAddresses {
            logger.info("MPD server listening", metadata: ["on": "\(address)", "password": "\(configuration.password != nil)"])
        }
        return listeningAddresses
    }

    /// Closes the listeners and every client, and removes the socket files this server created.
    public func stop() async {
        let closing = listeners
        listeners = []
        for listener in closing { try? await listener.close() }
        await connections.closeAll()
        for path in socketFiles { MPDSocketFile.remove(path) }
        socketFiles = []
        if !listeningAddresses.isEmpty { logger.info("MPD server stopped") }
        listeningAddresses = []
    }

    /// What the log may say about a client: where it is on the map, never its address.
    static func kind(of address: SocketAddress?) -> String {
        switch address {
        case .unixDomainSocket: "local socket"
        case .some(let address):
            MPDEndpoint.tcp(host: address.ipAddress ?? "", port: 0).isLocalOnly ? "loopback" : "network"
        case nil: "unknown"
        }
    }

    private func bind(_ endpoint: MPDEndpoint) async throws(MPDServerError) {
        // Local as MPD counts it for `config`: a client of the Unix socket, never one of TCP, even
        // on loopback (mpd knows a local client by its peer credentials, which only a Unix
        // socket has).
        let isLocal = if case .unixSocket = endpoint { true } else { false }
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .childChannelInitializer { [backend, configuration, logger, connections, messages, isLocal] channel in
                channel.eventLoop.makeCompletedFuture {
                    let local = Self.kind(of: channel.remoteAddress)
                    guard connections.admit(channel) else {
                        logger.warning("MPD connection refused: too many clients", metadata: ["from": "\(local)"])
                        try channel.pipeline.syncOperations.addHandler(MPDRefusalHandler())
                        return
                    }
                    logger.info("MPD client connected", metadata: ["from": "\(local)"])
                    channel.closeFuture.whenComplete { _ in
                        connections.remove(channel)
                        logger.info("MPD client disconnected", metadata: ["from": "\(local)"])
                    }
                    try channel.pipeline.syncOperations.addHandler(
                        MPDConnectionHandler(
                            backend: backend, password: configuration.password, limits: configuration.limits, messages: messages,
                            isLocal: isLocal, logger: logger))
                }
            }
        do {
            switch endpoint {
            case .tcp(let host, let port):
                let channel = try await bootstrap.serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                    .bind(host: host, port: port).get()
                listeners.append(channel)
                listeningAddresses.append(.tcp(host: host, port: channel.localAddress?.port ?? port))
            case .unixSocket(let path):
                try await MPDSocketFile.clearStale(path, group: group)
                // Nothing is accepted until the file is private to its owner.
                let channel = try await bootstrap.serverChannelOption(.autoRead, value: false)
                    .bind(unixDomainSocketPath: path).get()
                listeners.append(channel)
                socketFiles.append(path)
                try MPDSocketFile.makePrivate(path)
                try await channel.setOption(.autoRead, value: true).get()
                listeningAddresses.append(endpoint)
            }
        } catch let error as MPDServerError {
            throw error
        } catch {
            throw .bindFailed(endpoint, reason: "\(error)")
        }
    }
}

/// Answers a client beyond the connection limit with an ACK, then closes it.
final class MPDRefusalHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    func channelActive(context: ChannelHandlerContext) {
        let ack = MPDResponseEncoder.ack(MPDAck(.unknown, "Too many clients connected; try again later"))
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(bytes: ack))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
