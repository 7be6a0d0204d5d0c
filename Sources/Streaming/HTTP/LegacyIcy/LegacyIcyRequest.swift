import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import PlayerCore
import Synchronization

/// One GET to a SHOUTcast v1 server, whose answer begins `ICY 200 OK` instead of `HTTP/1.x 200 OK`.
///
/// Why not AsyncHTTPClient: its HTTP/1 parser (llhttp) refuses that status line, and it offers no
/// way to put a handler in front of its parser. So this path opens a channel of its own on the same
/// event loops, with `IcyStatusLineRewriter` in front of NIO's HTTP client handlers: headers and
/// body are then parsed by the same decoder as everywhere else, and reach the same sink as an
/// AsyncHTTPClient response (`HTTPResponseSink`), so demuxing, buffering and every fault are
/// handled by one piece of code. Plain TCP only and no redirects: SHOUTcast v1 servers speak
/// neither TLS nor redirects.
///
/// Backpressure: the sink gets one body part at a time, the next once the last one's future has
/// completed, and while one is pending the channel asks the socket for nothing more, so TCP flow
/// control reaches the server (as AsyncHTTPClient's delegate futures do). One socket read may
/// still bring several parts (NIO reads up to `maxMessagesPerRead` times per read request): they
/// wait in order in the handler, never at the sink, whose buffer may be full.
final class LegacyIcyRequest: Sendable {
    private struct State {
        var channel: (any Channel)?
        var cancelled = false
    }

    private let state = Mutex(State())

    /// Connects and sends `request` (as HTTP/1.0, `GETRequest.legacyHead`); the answer goes to
    /// `sink` on the channel's event loop.
    init(request: GETRequest, group: any EventLoopGroup, connectTimeout: TimeAmount, sink: any HTTPResponseSink) {
        guard let host = request.target.host, request.target.scheme?.lowercased() == "http", let head = request.legacyHead() else {
            sink.failed(PlaybackError(.streamUnavailable, underlying: "a legacy ICY server is reached over plain http only"))
            return
        }
        let port = request.target.port ?? 80
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(connectTimeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let operations = channel.pipeline.syncOperations
                    try operations.addHTTPClientHandlers(leftOverBytesStrategy: .dropBytes)
                    try operations.addHandler(IcyStatusLineRewriter(), position: .first)
                    try operations.addHandler(ResponseHandler(request: head, sink: sink))
                }
            }
        bootstrap.connect(host: host, port: port).whenComplete { [self] result in
            switch result {
            case .success(let channel):
                let cancelled = state.withLock { value -> Bool in
                    value.channel = channel
                    return value.cancelled
                }
                if cancelled { channel.close(promise: nil) }
            case .failure(let error):
                sink.failed(error)
            }
        }
    }

    /// Closes the connection (or abandons it if it is still being made). Idempotent.
    func cancel() {
        let channel = state.withLock { value -> (any Channel)? in
            value.cancelled = true
            return value.channel
        }
        channel?.close(promise: nil)
    }

    /// Writes the request when the channel becomes active, passes the answer to the sink one body
    /// part at a time, and holds reads while a part waits.
    private final class ResponseHandler: ChannelDuplexHandler {
        typealias InboundIn = HTTPClientResponsePart
        typealias OutboundIn = HTTPClientRequestPart
        typealias OutboundOut = HTTPClientRequestPart

        private let request: HTTPRequestHead
        private let sink: any HTTPResponseSink
        private var finished = false
        /// A part is with the sink, its future not yet complete.
        private var delivering = false
        /// Parts that came while one was with the sink, oldest first.
        private var waiting = CircularBuffer<ByteBuffer>()
        /// How the answer ended, once it did while parts were still waiting: told after them.
        private var endAfterWaiting: (() -> Void)?
        private var heldRead = false

        init(request: HTTPRequestHead, sink: any HTTPResponseSink) {
            self.request = request
            self.sink = sink
        }

        func channelActive(context: ChannelHandlerContext) {
            context.write(wrapOutboundOut(.head(request)), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            context.fireChannelActive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !finished else { return }
            switch unwrapInboundIn(data) {
            case .head(let head):
                do {
                    try sink.head(head)
                } catch {
                    finish(context: context) { sink.failed(error) }
                }
            case .body(let buffer):
                if delivering { waiting.append(buffer) } else { deliver(buffer, context: context) }
            case .end:
                endWhenDelivered(context: context) { [sink] in sink.ended() }
            }
        }

        private func deliver(_ buffer: ByteBuffer, context: ChannelHandlerContext) {
            delivering = true
            let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
            sink.body(buffer, on: context.eventLoop).hop(to: context.eventLoop).whenComplete { result in
                bound.value.handler.delivered(result, context: bound.value.context)
            }
        }

        /// A body part was taken (or refused): the next waiting part goes, else the end, else reads resume.
        private func delivered(_ result: Result<Void, any Error>, context: ChannelHandlerContext) {
            delivering = false
            guard !finished else { return }
            switch result {
            case .success:
                if let next = waiting.popFirst() {
                    deliver(next, context: context)
                } else if let end = endAfterWaiting {
                    finish(context: context, report: end)
                } else if heldRead {
                    heldRead = false
                    context.read()
                }
            case .failure:
                // The sink refused the bytes (closed, or failed itself): nothing more to read.
                finish(context: context) {}
            }
        }

        /// Tells how the answer ended once every part before it is with the sink.
        private func endWhenDelivered(context: ChannelHandlerContext, _ report: @escaping () -> Void) {
            guard delivering else { return finish(context: context, report: report) }
            if endAfterWaiting == nil { endAfterWaiting = report }
        }

        func read(context: ChannelHandlerContext) {
            if delivering { heldRead = true } else { context.read() }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            finish(context: context) { sink.failed(error) }
        }

        func channelInactive(context: ChannelHandlerContext) {
            // After an `.end` this changes nothing; otherwise the connection closed mid-answer.
            endWhenDelivered(context: context) { [sink] in sink.failed(ChannelError.eof) }
            context.fireChannelInactive()
        }

        /// Reports the outcome once, then closes the connection.
        private func finish(context: ChannelHandlerContext, report: () -> Void) {
            guard !finished else { return }
            finished = true
            report()
            context.close(promise: nil)
        }
    }
}
