import Foundation
import NIOCore
import Synchronization

/// A TCP server on 127.0.0.1 that answers every connection with the same bytes, byte for byte:
/// for answers an HTTP library would refuse to send (an `ICY 200 OK` status line, a lying header).
///
/// It waits for the end of the request head (an empty line), writes `response`, then closes the
/// connection, or with `keepOpen` holds it open and silent until `stop()`. With `answer`, each
/// connection (numbered from 1) gets its own response: a server that drops and comes back.
///
/// SwiftNIO owns every socket: the listener and each connection are closed exactly once, by their
/// channel, and `stop()` returns only after the event loop has closed them all. A hand-written
/// accept loop here once closed a descriptor number after `stop()` had already closed it, by which
/// time the number belonged to another test's socket.
package final class RawTCPServer: Sendable {
    package var port: Int { server.port }
    package var baseURL: String { "http://127.0.0.1:\(port)" }
    private let server: LoopbackNIOServer
    private let log: RequestLog

    /// The request heads received so far, as text, in order.
    package var requestHeads: [String] { log.heads.withLock { $0 } }

    package convenience init(response: [UInt8], keepOpen: Bool = false) throws {
        try self.init { _ in (response, keepOpen) }
    }

    package init(answer: @escaping @Sendable (_ connection: Int) -> (response: [UInt8], keepOpen: Bool)) throws {
        let log = RequestLog()
        self.log = log
        server = try LoopbackNIOServer { channel in
            channel.eventLoop.makeCompletedFuture {
                let number = log.connections.withLock { count in
                    count += 1
                    return count
                }
                let (response, keepOpen) = answer(number)
                try channel.pipeline.syncOperations.addHandler(Answer(response: response, keepOpen: keepOpen, log: log))
            }
        }
    }

    private final class RequestLog: Sendable {
        let heads = Mutex<[String]>([])
        let connections = Mutex(0)
    }

    /// Closes the listener and every connection, and waits until they are closed. Idempotent.
    package func stop() { server.stop() }

    /// Reads until the request head ends, then answers.
    private final class Answer: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private let response: [UInt8]
        private let keepOpen: Bool
        private let log: RequestLog
        /// The request bytes so far, or nil once answered (later bytes are ignored).
        private let head = Mutex<[UInt8]?>([])

        init(response: [UInt8], keepOpen: Bool, log: RequestLog) {
            self.response = response
            self.keepOpen = keepOpen
            self.log = log
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let bytes = Array(buffer: unwrapInboundIn(data))
            let complete: Bool = head.withLock { head in
                guard var received = head else { return false }
                received += bytes
                guard Self.containsEmptyLine(received) else {
                    head = received
                    return false
                }
                log.heads.withLock { $0.append(String(decoding: received, as: UTF8.self)) }
                head = nil
                return true
            }
            guard complete else { return }
            let written = context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: response)))
            if !keepOpen {
                let channel = context.channel
                written.whenComplete { _ in channel.close(promise: nil) }
            }
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }

        private static func containsEmptyLine(_ bytes: [UInt8]) -> Bool {
            guard bytes.count >= 4 else { return false }
            for index in 0...(bytes.count - 4) where bytes[index] == 13 {
                if bytes[index + 1] == 10, bytes[index + 2] == 13, bytes[index + 3] == 10 { return true }
            }
            return false
        }
    }
}
