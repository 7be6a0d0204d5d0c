import NIOCore
import NIOHTTP1

/// Where the parts of one HTTP response go, whichever client read them (AsyncHTTPClient's
/// delegate, or the legacy ICY channel), so one piece of code checks, demuxes and buffers them.
/// Called in order, on one event loop.
protocol HTTPResponseSink: Sendable {
    /// The head; throwing refuses the answer (a bad status, a web page).
    func head(_ head: HTTPResponseHead) throws
    /// One body part; the future completes when the next may be read (backpressure). The next
    /// part comes only after that: the sink holds at most one part it could not take.
    func body(_ buffer: ByteBuffer, on eventLoop: any EventLoop) -> EventLoopFuture<Void>
    /// The body ended normally.
    func ended()
    /// The request failed (before or after its head).
    func failed(_ error: any Error)
}
