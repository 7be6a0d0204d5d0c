import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import PlayerCore

/// Bytes of an HTTP(S) stream (internet radio, or a finite file with `endOfBodyIsEnd`), with ICY
/// metadata removed, for the decoder's blocking `read(into:)`.
///
/// Lifecycle: `start()` issues the request (`read` calls it too, so starting is optional): a `GET`
/// with `Icy-MetaData: 1` and a User-Agent through AsyncHTTPClient's delegate API, which follows up to
/// `StreamingLimits.maxRedirects` redirects (when the default `SharedHTTPClient.client` is used; a
/// caller-supplied client follows its own redirect configuration), and moves the body through an
/// `IcyDemuxer` into a bounded ring of `capacity` bytes, all on the client's event loop (never the
/// Swift concurrency pool, whose few threads may be busy). When the ring is full the client stops
/// reading (TCP backpressure reaches the server); `read` frees space and lets it go on. `close()` cancels the
/// request and wakes blocked readers, which then throw `.cancelled`.
///
/// Response handling: non-2xx -> `PlaybackError.from(httpStatus:retryAfter:)` (an HTTP-date
/// `Retry-After` becomes `.seconds` relative to now); `Content-Type: text/html` -> `.wrongContentType`;
/// `icy-metaint` enables demuxing, and each metadata block goes to `onMetadata`; the `icy-*`
/// headers become `stationInfo`.
///
/// SHOUTcast v1: a server whose answer begins `ICY 200 OK` (which AsyncHTTPClient's parser refuses)
/// is asked again at once through `LegacyIcyRequest`, and remembered (`LegacyIcyServers`) so its
/// reconnects go there directly; its answer reaches the same checks, demuxer and ring.
///
/// Ranges (episodes): with `startOffset` the request asks for `Range: bytes=N-`; the head's status,
/// `Content-Length`, `Content-Range`, `Accept-Ranges` and `ETag` are kept in `responseInfo` (also
/// for a refused status such as 416), so a resuming reader (`ResumableHTTPSource`) can check that
/// the body continues the same file at the right byte. This source never skips bytes itself.
/// `requestsIcyMetadata: false` leaves `Icy-MetaData` out (a file has no titles to interleave).
///
/// End of body: for a live stream (the default) the end of the body is a dropped connection, never
/// a normal end: `read` returns what is buffered and then throws `.connectionLost`, so the
/// reconnect supervisor retries (Icecast dying looks exactly like this to a listener). With
/// `endOfBodyIsEnd: true` (finite files, episodes) `read` returns 0 instead.
///
/// Time: this source decides nothing by the clock. It reports facts on `connection`: `dry` when a
/// reader waits (for the head or for bytes) and the ring has room, `receiving` when the head or
/// bytes arrive after that, and, for a live stream, `dropped` when the connection ends after its
/// head. The player's state machine decides when a dry source is dead and gives its connection up
/// (`ConnectionLink.abandon`), which fails this source with the machine's cause. (The shared
/// client's TCP connect timeout still ends a connect attempt that never completes.) Transport
/// errors are mapped by `HTTPErrorMapping` (refused -> `connectionFailed`, DNS -> `dnsFailure`,
/// ...). Errors are sticky.
///
/// Thread-safety: every mutable field is guarded by `condition`; `onMetadata` is called on the
/// event loop, outside the lock. `read` blocks its thread: call it from a dedicated thread (the
/// decoder's), never from the Swift concurrency pool or an event loop.
///
/// Ownership: the running request keeps the source alive; the owner must call `close()` (a live
/// stream never ends by itself).
public final class HTTPByteSource: ByteSource, @unchecked Sendable {
    public let url: URL
    /// Called on the client's event loop for every ICY metadata block (titles), in stream order.
    public let onMetadata: (@Sendable (IcyMetadata) -> Void)?

    private let httpClient: HTTPClient
    private let connection: ConnectionLink
    private let endOfBodyIsEnd: Bool
    private let startOffset: Int64?
    private let requestsIcyMetadata: Bool
    private let requestLog: HTTPRequestLog
    private let health: ConnectionHealth

    private enum Phase {
        case idle, connecting, streaming, ended, failed(PlaybackError), closed
    }

    /// Which client carries the request: a report from the other one (AsyncHTTPClient failing
    /// after the request moved to the legacy path) is stale and ignored.
    private enum RequestPath { case client, legacy }

    private let condition = NSCondition()
    private var phase: Phase = .idle
    private var ring: ByteRing
    /// Body bytes that did not fit in the ring, and the promise that lets the client read more
    /// once they do (TCP backpressure reaches the server meanwhile).
    private var pending: (bytes: [UInt8], offset: Int, promise: EventLoopPromise<Void>)?
    private var task: HTTPClient.Task<Void>?
    private var legacyRequest: LegacyIcyRequest?
    private var path = RequestPath.client
    private var _stationInfo = IcyStationInfo(headers: [:])
    private var _contentType: String?
    private var _httpStatus: Int?
    private var _bytesReceived = 0
    private var _lastByteAt: Double?
    private var _headersReceived = false
    private var _responseInfo: HTTPResponseInfo?

    /// - Parameters:
    ///   - client: defaults to `SharedHTTPClient.client` (redirect cap, fail-fast connects).
    ///   - connection: where the connection's facts go, and how the player gives it up; a link
    ///     nobody listens to by default (the caller then closes a silent source itself).
    ///   - capacity: the ring's size in bytes (audio after demuxing).
    ///   - endOfBodyIsEnd: true for finite files: the end of the body is the end of the stream.
    ///   - startOffset: asks for the file from this byte on (`Range: bytes=N-`); nil asks for all.
    ///   - requestsIcyMetadata: sends `Icy-MetaData: 1` (radio); false for files.
    ///   - logger: receives the request's `debug` records (URL redacted); silent by default.
    ///   - breakers: asked before connecting (`circuitOpen` while the host's is open) and told how
    ///     the connection went, at connection time only; nil: no breaker.
    ///   - onMetadata: receives each ICY metadata block.
    public init(
        url: URL,
        client: HTTPClient = SharedHTTPClient.client,
        connection: ConnectionLink = ConnectionLink(),
        capacity: Int = 1 << 20,
        endOfBodyIsEnd: Bool = false,
        startOffset: Int64? = nil,
        requestsIcyMetadata: Bool = true,
        logger: Logger = Logger(label: "tonearm.http", factory: { _ in SwiftLogNoOpLogHandler() }),
        breakers: HostCircuitBreakers? = nil,
        onMetadata: (@Sendable (IcyMetadata) -> Void)? = nil
    ) {
        self.health = ConnectionHealth(breakers: breakers, url: url)
        self.url = url
        self.httpClient = client
        self.connection = connection
        self.endOfBodyIsEnd = endOfBodyIsEnd
        self.startOffset = startOffset.map { max(0, $0) }
        self.requestsIcyMetadata = requestsIcyMetadata
        self.onMetadata = onMetadata
        self.ring = ByteRing(capacity: capacity)
        self.requestLog = HTTPRequestLog(logger: logger, url: url)
    }

    deinit {
        task?.cancel()
        legacyRequest?.cancel()
    }

    // MARK: - Observed state

    /// Station details from the response's `icy-*` headers (empty before the head arrives).
    public var stationInfo: IcyStationInfo { condition.withLock { _stationInfo } }
    /// The response's `Content-Type`, once the head arrived.
    public var contentType: String? { condition.withLock { _contentType } }
    /// The final response's status, once the head arrived.
    public var httpStatus: Int? { condition.withLock { _httpStatus } }
    /// What the final response head said about ranges, length and version; nil before the head.
    /// Kept for refused statuses too (a 416 tells the file's size).
    public var responseInfo: HTTPResponseInfo? { condition.withLock { _responseInfo } }
    /// Body bytes received so far (before demuxing, so metadata counts too).
    public var bytesReceived: Int { condition.withLock { _bytesReceived } }
    /// When body bytes last arrived, in monotonic seconds (`HTTPByteSource.now()`); nil before any.
    public var lastByteAt: Double? { condition.withLock { _lastByteAt } }

    /// Monotonic seconds, the clock of `lastByteAt`.
    public static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    // MARK: - Control

    /// Issues the request (once; later calls do nothing).
    public func start() {
        condition.lock()
        guard case .idle = phase else {
            condition.unlock()
            return
        }
        phase = .connecting
        connection.onAbandon { [weak self] cause in self?.abandon(cause) }
        do {
            try health.begin()
            requestLog.started(range: startOffset)
            if LegacyIcyServers.isKnown(url) {
                requestLog.legacyServer(known: true)
                startLegacyRequest()
            } else {
                let request = try HTTPClient.Request(url: url.absoluteString, method: .GET, headers: requestHeaders)
                let running = httpClient.execute(request: request, delegate: BodyDelegate(receiver: Receiver(source: self, path: .client)))
                // Some failures (a redirect cycle) end the task without reaching the delegate.
                running.futureResult.whenFailure { [weak self] error in self?.fail(error, via: .client) }
                task = running
            }
        } catch {
            phase = .failed(HTTPErrorMapping.map(error))
            health.abandoned()
        }
        condition.unlock()
    }

    private var requestHeaders: HTTPHeaders {
        var headers = HTTPHeaders()
        headers.add(name: "User-Agent", value: SharedHTTPClient.userAgent)
        if requestsIcyMetadata { headers.add(name: "Icy-MetaData", value: "1") }
        if let startOffset { headers.add(name: "Range", value: "bytes=\(startOffset)-") }
        headers.add(name: "Accept", value: "*/*")
        return headers
    }

    /// Sends the request through the legacy ICY path. Call with the lock held.
    private func startLegacyRequest() {
        path = .legacy
        legacyRequest = LegacyIcyRequest(
            url: url, headers: requestHeaders, group: httpClient.eventLoopGroup,
            connectTimeout: .milliseconds(Int64(ResilienceDefaults.connectTimeout * 1000)),
            sink: Receiver(source: self, path: .legacy))
    }

    /// Blocks until the response head arrived (true), the source ended, failed or closed, or
    /// `timeout` passed (nil: no limit; in the player, the state machine abandons a connection that
    /// does not answer). Throws the source's error when it failed before any byte was read.
    @discardableResult
    public func waitForResponse(timeout: Double? = nil) throws(PlaybackError) -> Bool {
        start()
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        condition.lock()
        defer { condition.unlock() }
        while true {
            if _headersReceived { return true }
            switch phase {
            case .failed(let error): throw error
            case .closed: throw PlaybackError(.cancelled, underlying: "source closed")
            case .ended: return false
            case .idle, .connecting, .streaming: break
            }
            connection.tell(.dry)
            if let deadline {
                if !condition.wait(until: deadline) { return _headersReceived }
            } else {
                condition.wait()
            }
        }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlaybackError) -> Int {
        guard buffer.count > 0 else { return 0 }
        start()
        condition.lock()
        while true {
            if !ring.isEmpty {
                let count = ring.read(into: buffer)
                let resumed = movePendingIntoRing()
                condition.unlock()
                resumed?.succeed(())
                return count
            }
            switch phase {
            case .failed(let error):
                condition.unlock()
                throw error
            case .closed:
                condition.unlock()
                throw PlaybackError(.cancelled, underlying: "source closed")
            case .ended:
                condition.unlock()
                if endOfBodyIsEnd { return 0 }
                throw PlaybackError(.connectionLost, underlying: "the live stream's body ended")
            case .idle, .connecting, .streaming:
                // Nothing buffered and room for more: the reader waits on the network.
                connection.tell(.dry)
                condition.wait()
            }
        }
    }

    public func close() {
        condition.lock()
        phase = .closed
        let waiter = pending?.promise
        pending = nil
        let running = task
        let legacy = legacyRequest
        condition.broadcast()
        condition.unlock()
        requestLog.ended(bytes: bytesReceived, closed: true)
        waiter?.fail(CancellationError())
        running?.cancel()
        legacy?.cancel()
        health.abandoned()
    }

    // MARK: - Body (on the client's event loop)

    /// Receives the response on the HTTP client's event loop, never the Swift concurrency pool: a
    /// busy pool must not delay the bytes (or fake a timeout). One request, callbacks in order.
    private final class BodyDelegate: HTTPClientResponseDelegate, Sendable {
        typealias Response = Void
        private let receiver: Receiver

        init(receiver: Receiver) { self.receiver = receiver }

        func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
            do {
                try receiver.head(head)
                return task.eventLoop.makeSucceededVoidFuture()
            } catch {
                receiver.failed(error)
                return task.eventLoop.makeFailedFuture(error)
            }
        }

        func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
            receiver.body(buffer, on: task.eventLoop)
        }

        func didFinishRequest(task: HTTPClient.Task<Void>) throws { receiver.ended() }

        func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) { receiver.failed(error) }
    }

    /// One request's answer, from either client: checks the head, demuxes the body into the ring.
    /// Its callbacks come in order on one event loop, which guards `demuxer`.
    private final class Receiver: HTTPResponseSink, @unchecked Sendable {
        private weak var source: HTTPByteSource?
        private let path: RequestPath
        private var demuxer: IcyDemuxer?

        init(source: HTTPByteSource, path: RequestPath) {
            self.source = source
            self.path = path
        }

        func head(_ head: HTTPResponseHead) throws {
            guard let source else { throw CancellationError() }
            demuxer = try source.handleHead(status: Int(head.status.code), headers: head.headers)
        }

        func body(_ buffer: ByteBuffer, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
            guard let source, var demuxer else { return eventLoop.makeFailedFuture(CancellationError()) }
            do {
                let output = try demuxer.feed(buffer.readableBytesView)
                self.demuxer = demuxer
                return source.deliver(output, received: buffer.readableBytes, on: eventLoop)
            } catch {
                source.fail(error, via: path)
                return eventLoop.makeFailedFuture(error)
            }
        }

        func ended() {
            guard let source else { return }
            do {
                try demuxer?.finish()
                source.bodyEnded()
            } catch {
                source.fail(error, via: path)
            }
        }

        func failed(_ error: any Error) { source?.fail(error, via: path) }
    }

    /// Takes one chunk's audio into the ring (what does not fit waits in `pending`) and hands its
    /// titles to `onMetadata`. The returned future completes when the client may read on.
    private func deliver(_ output: IcyOutput, received: Int, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        let result: EventLoopFuture<Void>? = condition.withLock {
            guard isOpen else { return nil }
            _bytesReceived += received
            _lastByteAt = Self.now()
            connection.tell(.receiving)
            let written = ring.write(output.audio, from: 0)
            condition.broadcast()
            guard written < output.audio.count else { return eventLoop.makeSucceededVoidFuture() }
            let promise = eventLoop.makePromise(of: Void.self)
            pending = (output.audio, written, promise)
            return promise.futureResult
        }
        guard let result else { return eventLoop.makeFailedFuture(CancellationError()) }
        if let onMetadata { output.metadata.forEach(onMetadata) }
        return result
    }

    /// Moves waiting bytes into the freed space; returns the promise to complete once all of them
    /// are in. Call with the lock held.
    private func movePendingIntoRing() -> EventLoopPromise<Void>? {
        guard var waiting = pending else { return nil }
        waiting.offset += ring.write(waiting.bytes, from: waiting.offset)
        guard waiting.offset >= waiting.bytes.count else {
            pending = waiting
            return nil
        }
        pending = nil
        return waiting.promise
    }

    private func bodyEnded() {
        let droppedLive: Bool = condition.withLock {
            let live = !endOfBodyIsEnd && isOpen
            if isOpen { phase = .ended }
            condition.broadcast()
            return live
        }
        requestLog.ended(bytes: bytesReceived)
        // A live stream never ends: the end of its body is a dropped connection.
        if droppedLive { connection.tell(.dropped(PlaybackError(.connectionLost, underlying: "the live stream's body ended"))) }
    }

    /// Checks the status and content type, reads the headers; returns the demuxer to use.
    private func handleHead(status: Int, headers responseHeaders: HTTPHeaders) throws(PlaybackError) -> IcyDemuxer {
        requestLog.responded(status: status)
        health.answered(status: status)
        let info = HTTPResponseInfo(status: status) { responseHeaders.first(name: $0) }
        condition.withLock { _responseInfo = info }
        guard (200...299).contains(status) else {
            let retryAfter = responseHeaders.first(name: "Retry-After").flatMap { RetryAfter.parse($0) }
            throw PlaybackError.from(httpStatus: status, retryAfter: retryAfter.map { Self.relative($0) })
                ?? PlaybackError(.httpClientError, httpStatus: status, underlying: "unexpected HTTP status \(status)")
        }
        let contentType = responseHeaders.first(name: "Content-Type")
        var headers: [String: String] = [:]
        for header in responseHeaders where headers[header.name] == nil { headers[header.name] = header.value }
        condition.withLock {
            _httpStatus = status
            _contentType = contentType
            _stationInfo = IcyStationInfo(headers: headers)
        }
        if let contentType,
            contentType.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() == "text/html"
        {
            throw PlaybackError(.wrongContentType, underlying: "Content-Type text/html (a web page, not audio)")
        }
        // Titles are only demuxed when asked for: a file's bytes are never cut into by a stray header.
        let demuxer = try IcyDemuxer(metaIntervalHeader: requestsIcyMetadata ? responseHeaders.first(name: "icy-metaint") : nil)
        condition.withLock {
            _headersReceived = true
            if case .connecting = phase { phase = .streaming }
            connection.tell(.receiving)
            condition.broadcast()
        }
        return demuxer
    }

    /// The state machine only honours seconds: an HTTP-date becomes the seconds from now.
    static func relative(_ retryAfter: RetryAfter, now: Date = Date()) -> RetryAfter {
        switch retryAfter {
        case .seconds: return retryAfter
        case .date: return .seconds(retryAfter.delay(now: now))
        }
    }

    /// True while the source may still deliver bytes. Call with the lock held.
    private var isOpen: Bool {
        switch phase {
        case .idle, .connecting, .streaming: return true
        case .ended, .failed, .closed: return false
        }
    }

    /// Records the first error (errors are sticky; a closed source stays closed) and wakes readers.
    /// A live stream that fails after its head has dropped, which the player is told (unless the
    /// player itself gave the connection up). A report from a client the request has left is
    /// ignored; an `ICY 200 OK` refused by AsyncHTTPClient sends the request down the legacy path.
    private func fail(_ error: any Error, via reporter: RequestPath? = nil, toldByPlayer: Bool = false) {
        if let reporter {
            let proceed: Bool = condition.withLock {
                guard reporter == path else { return false }
                guard reporter == .client, Self.isIcyStatusLine(error), isOpen, !_headersReceived else { return true }
                LegacyIcyServers.remember(url)
                requestLog.legacyServer(known: false)
                task = nil
                startLegacyRequest()
                return false
            }
            guard proceed else { return }
        }
        let mapped = HTTPErrorMapping.map(error)
        requestLog.ended(bytes: bytesReceived, error: mapped)
        health.failed(mapped)
        condition.lock()
        var waiter: EventLoopPromise<Void>?
        var dropped = false
        if isOpen {
            if case .streaming = phase, !endOfBodyIsEnd, !toldByPlayer { dropped = true }
            phase = .failed(mapped)
            waiter = pending?.promise
            pending = nil
        }
        condition.broadcast()
        condition.unlock()
        waiter?.fail(mapped)
        if dropped { connection.tell(.dropped(mapped)) }
    }

    /// The player decided the connection is dead (`ConnectionLink.abandon`): fail with its cause
    /// and end the request.
    private func abandon(_ cause: PlaybackError) {
        fail(cause, toldByPlayer: true)
        let (running, legacy) = condition.withLock { (task, legacyRequest) }
        running?.cancel()
        legacy?.cancel()
    }

    /// What AsyncHTTPClient's parser reports for a status line that is not HTTP's (`ICY 200 OK`).
    private static func isIcyStatusLine(_ error: any Error) -> Bool {
        (error as? HTTPParserError) == .invalidConstant
    }
}
