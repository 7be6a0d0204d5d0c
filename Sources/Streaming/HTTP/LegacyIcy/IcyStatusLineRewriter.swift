import NIOCore

/// Turns a SHOUTcast v1 status line (`ICY 200 OK`) into `HTTP/1.0 200 OK` before NIO's HTTP
/// response decoder sees it; everything after the first four bytes passes through untouched.
///
/// Why rewrite rather than parse by hand: apart from its status line a SHOUTcast v1 answer is an
/// HTTP/1.0 answer (header lines, an empty line, a body that ends when the connection does), so
/// the HTTP decoder already parses it correctly; only its protocol token is refused. This is the
/// approach curl takes. HTTP/1.0 makes the decoder read the body until the connection closes.
final class IcyStatusLineRewriter: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// The first bytes of the answer while fewer than four have arrived; nil once decided.
    private var opening: ByteBuffer? = ByteBuffer()
    private static let icy = Array("ICY ".utf8)
    private static let http = Array("HTTP/1.0 ".utf8)

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        guard var buffered = opening else {
            context.fireChannelRead(data)
            return
        }
        buffered.writeBuffer(&incoming)
        guard buffered.readableBytes >= Self.icy.count else {
            opening = buffered
            return
        }
        opening = nil
        if buffered.readableBytesView.prefix(Self.icy.count).elementsEqual(Self.icy) {
            buffered.moveReaderIndex(forwardBy: Self.icy.count)
            var rewritten = context.channel.allocator.buffer(capacity: Self.http.count + buffered.readableBytes)
            rewritten.writeBytes(Self.http)
            rewritten.writeBuffer(&buffered)
            buffered = rewritten
        }
        context.fireChannelRead(wrapInboundOut(buffered))
    }

    func channelInactive(context: ChannelHandlerContext) {
        // An answer shorter than four bytes still reaches the decoder, which calls it malformed.
        if let buffered = opening, buffered.readableBytes > 0 {
            opening = nil
            context.fireChannelRead(wrapInboundOut(buffered))
        }
        context.fireChannelInactive()
    }
}
