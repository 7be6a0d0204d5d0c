import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Prometheus
import Synchronization

/// `/metrics` over HTTP/1.1 for a Prometheus scrape: the registry in the text exposition format,
/// nothing else (any other path is a 404, any other method a 405). SwiftNIO's HTTP codec does the
/// protocol; what is written here is only the answer, as no library serves a registry on its own.
package final class MetricsHTTPServer: Sendable {
    private let registry: PrometheusCollectorRegistry
    private let group: any EventLoopGroup
    private let logger: Logger
    private let listener = Mutex<(any Channel)?>(nil)
    private let beforeScrape: @Sendable () -> Void

    /// - Parameter beforeScrape: brings sampled metrics up to date (quick, on the event loop).
    package init(
        registry: PrometheusCollectorRegistry, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, logger: Logger,
        beforeScrape: @escaping @Sendable () -> Void = {}
    ) {
        self.registry = registry
        self.beforeScrape = beforeScrape
        self.group = group
        self.logger = logger
    }

    /// Listens on `host`:`port` (0: any free port).
    /// - Returns: the port bound.
    package func start(host: String, port: Int) async throws -> Int {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 16)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { [registry, beforeScrape] channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(MetricsHandler(registry: registry, beforeScrape: beforeScrape))
                }
            }
        let channel = try await bootstrap.bind(host: host, port: port).get()
        listener.withLock { $0 = channel }
        let bound = channel.localAddress?.port ?? port
        logger.info("metrics served", metadata: ["address": "\(host):\(bound)", "path": "/metrics"])
        return bound
    }

    package func stop() async {
        let channel = listener.withLock { channel in
            defer { channel = nil }
            return channel
        }
        try? await channel?.close()
    }
}

/// Answers one connection's requests: the registry's text for `GET /metrics` (and `HEAD`).
private final class MetricsHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let registry: PrometheusCollectorRegistry
    private let beforeScrape: @Sendable () -> Void
    private var request: HTTPRequestHead?

    init(registry: PrometheusCollectorRegistry, beforeScrape: @escaping @Sendable () -> Void) {
        self.registry = registry
        self.beforeScrape = beforeScrape
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): request = head
        case .body: break
        case .end:
            guard let head = request else { return }
            request = nil
            respond(to: head, context: context)
        }
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
        let status: HTTPResponseStatus
        var body: [UInt8]
        var contentType = "text/plain; charset=utf-8"
        if head.method != .GET && head.method != .HEAD {
            (status, body) = (.methodNotAllowed, Array("GET only\n".utf8))
        } else if path == "/metrics" {
            status = .ok
            beforeScrape()
            body = registry.emitToBuffer()
            contentType = "text/plain; version=0.0.4; charset=utf-8"
        } else {
            (status, body) = (.notFound, Array("Tonearm serves /metrics only\n".utf8))
        }
        // One answer per connection: a scrape every few seconds gains nothing from keeping it, and
        // the daemon then holds no idle connection (a stop leaves nothing answering).
        let headers = HTTPHeaders([("Content-Type", contentType), ("Content-Length", "\(body.count)"), ("Connection", "close")])
        if head.method == .HEAD { body = [] }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
        if !body.isEmpty { context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil) }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
