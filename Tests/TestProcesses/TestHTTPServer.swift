import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A real HTTP/1.1 server on 127.0.0.1 and a free port for tests that need answers Icecast cannot
/// give (a 503 with Retry-After, an HTML page, a redirect loop, a lying ICY length byte, status JSON,
/// images). Each request is answered by `route`; a body is a script of parts so a test can send
/// bytes, pause, cut the connection, or keep it open without sending anything (a stall).
package final class TestHTTPServer: @unchecked Sendable {
    /// What the server does with one request.
    package struct Response: Sendable {
        package var status: Int
        package var headers: [(String, String)]
        package var body: [Part]

        package init(status: Int = 200, headers: [(String, String)] = [], body: [Part] = []) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// A complete answer with `Content-Length`.
        package static func complete(status: Int = 200, contentType: String, body: Data, headers: [(String, String)] = []) -> Response {
            Response(status: status, headers: [("Content-Type", contentType), ("Content-Length", "\(body.count)")] + headers, body: [.bytes(body)])
        }
    }

    /// One step of a response body.
    package enum Part: Sendable {
        case bytes(Data)
        /// Wait before the next part (the connection stays open and silent).
        case pause(Double)
        /// Close the connection abruptly (no terminating chunk).
        case cut
        /// Keep the connection open, silent, until the server stops.
        case hold
    }

    /// A request as the route sees it.
    package struct Request: Sendable {
        package let method: String
        /// Path and query, as sent.
        package let uri: String
        package let headers: [(String, String)]
        /// The request's body (a POST's), whole.
        package var body = Data()

        package var path: String { String(uri.split(separator: "?", maxSplits: 1).first ?? "") }
        package func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    }

    package let port: Int
    package var baseURL: String { "http://127.0.0.1:\(port)" }
    package func url(_ path: String) -> URL { URL(string: baseURL + path)! }

    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    private let lock = NSLock()
    private var _requests: [Request] = []
    private var stopped = false

    /// Every request received so far, in order.
    package var requests: [Request] { lock.withLock { _requests } }

    /// - Parameter port: 0 for a free port; a given one to come back where a stopped server was.
    package init(port: Int = 0, route: @escaping @Sendable (Request) -> Response) throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        self.group = group
        let recorder = Recorder()
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline(withErrorHandling: true).flatMap {
                    channel.pipeline.addHandler(Handler(route: route, record: { recorder.append($0) }))
                }
            }
        channel = try bootstrap.bind(host: "127.0.0.1", port: port).wait()
        self.port = channel.localAddress?.port ?? 0
        recorder.owner = self
    }

    deinit { stop() }

    /// A loopback port that refuses connections for as long as the reservation is held.
    package static func refusingPort() throws -> PortReservation { try PortReservation() }

    /// Closes the listener and every connection. Idempotent (`deinit` calls it too; shutting an
    /// event loop group down twice would block).
    package func stop() {
        let first: Bool = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }

    fileprivate func record(_ request: Request) { lock.withLock { _requests.append(request) } }

    private final class Recorder: @unchecked Sendable {
        weak var owner: TestHTTPServer?
        func append(_ request: Request) { owner?.record(request) }
    }

    private final class Handler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let route: @Sendable (Request) -> Response
        let record: @Sendable (Request) -> Void
        /// The request being read: answered when its end arrives, with its body.
        private var pending: Request?

        init(route: @escaping @Sendable (Request) -> Response, record: @escaping @Sendable (Request) -> Void) {
            self.route = route
            self.record = record
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                pending = Request(method: head.method.rawValue, uri: head.uri, headers: head.headers.map { ($0.name, $0.value) })
            case .body(var buffer):
                // Bodies are small here (a sync client's JSON); a runaway one is cut at 16 MiB.
                if let bytes = buffer.readBytes(length: buffer.readableBytes), (pending?.body.count ?? 0) < 16 << 20 {
                    pending?.body.append(contentsOf: bytes)
                }
            case .end:
                guard let request = pending else { return }
                pending = nil
                answer(request, context: context)
            }
        }

        private func answer(_ request: Request, context: ChannelHandlerContext) {
            record(request)
            let response = route(request)
            var headers = HTTPHeaders(response.headers)
            let chunked = !headers.contains(name: "Content-Length")
            if chunked { headers.add(name: "Connection", value: "close") }
            let responseHead = HTTPResponseHead(
                version: .http1_1, status: HTTPResponseStatus(statusCode: response.status), headers: headers)
            context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
            context.flush()
            send(response.body[...], context: context)
        }

        private func send(_ parts: ArraySlice<Part>, context: ChannelHandlerContext) {
            guard let part = parts.first else {
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                return
            }
            let rest = parts.dropFirst()
            switch part {
            case .bytes(let data):
                var buffer = context.channel.allocator.buffer(capacity: data.count)
                buffer.writeBytes(data)
                context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
                send(rest, context: context)
            case .pause(let seconds):
                let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                context.eventLoop.scheduleTask(in: .milliseconds(Int64(seconds * 1000))) {
                    let (handler, context) = loopBound.value
                    guard context.channel.isActive else { return }
                    handler.send(rest, context: context)
                }
            case .cut:
                context.close(promise: nil)
            case .hold:
                break
            }
        }
    }
}
