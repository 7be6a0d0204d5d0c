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
/// Reconnecting without a gap (live streams): after a drop, the player may ask for the stream
/// again through the same source (`ConnectionLink.reopen()`) while the ring still plays. The new
/// connection's audio joins the old through `OverlapSplice`, which drops what the server repeats
/// (Icecast's burst on connect), so nothing is heard twice; a reader never sees the seam. A reopen
/// that fails is told as a drop again; the player decides whether and when to try once more.
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
    private var requestLog: HTTPRequestLog
    private let logger: Logger
    private let health: ConnectionHealth

    private enum Phase {
        case idle, connecting, streaming, ended, failed(PlaybackError), closed
    }

    /// Which client carries the request: a report from the other one (AsyncHTTPClient failing
    /// after the request moved to the legacy path) is stale and ignored.
    private enum RequestPath { case client, legacy }

    /// One request of this source: its number (a reopen makes a new one) and its client. Reports
    /// of any other request than the current one are stale and ignored.
    private struct Attempt: Equatable {
        var number = 0
        var path = RequestPath.client
    }

    private let condition = NSCondition()
    private var phase: Phase = .idle
    private var ring: ByteRing
    /// Body bytes that did not fit in the ring, and the promise that lets the client read more
    /// once they do (TCP backpressure reaches the server meanwhile).
    private var pending: (bytes: [UInt8], offset: Int, promise: EventLoopPromise<Void>)?
    private var task: HTTPClient.Task<Void>?
    private var legacyRequest: LegacyIcyRequest?
    private var attempt = Attempt()
    /// A reopen is under way: its failure before any answer is a drop the player hears of.
    private var reopening = false
    /// A live stream dropped and the player has not given it up: once the ring is empty, a reader
    /// waits for the next connection's audio (`reopen`) instead of failing, which would end the
    /// decoder for good. The player answers every drop, so the wait ends with its abandon (the
    /// error is read as before), its unload (`close`), or audio.
    private var awaitingReopen = false
    /// Joins a reopened connection's audio to what was received (live streams only).
    private var splice = OverlapSplice()
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
        self.logger = logger
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
        connection.onReopen { [weak self] in self?.reopen() }
        connection.onBufferedBytes { [weak self] in self?.bufferedBytes ?? 0 }
        sendRequest()
        condition.unlock()
    }

    /// Bytes received and not yet read (what the ring holds, and a chunk waiting for room).
    public var bufferedBytes: Int {
        condition.withLock { ring.count + (pending.map { $0.bytes.count - $0.offset } ?? 0) }
    }

    /// Asks for the live stream again after a drop, keeping what the ring holds; the new audio
    /// joins the old without repeats. Does nothing unless the current connection dropped (its
    /// body ended or it failed by itself), or for a finite file.
    public func reopen() {
        condition.lock()
        defer { condition.unlock() }
        guard !endOfBodyIsEnd, !reopening else { return }
        switch phase {
        case .ended, .failed: break
        case .idle, .connecting, .streaming, .closed: return
        }
        let previous = (task, legacyRequest)
        task = nil
        legacyRequest = nil
        previous.0?.cancel()
        previous.1?.cancel()
        if let waiter = pending?.promise {
            pending = nil
            waiter.fail(CancellationError())
        }
        attempt.number += 1
        reopening = true
        awaitingReopen = true
        splice.newConnection()
        phase = .connecting
        requestLog = HTTPRequestLog(logger: logger, url: url)
        logger.debug("live stream asked for again after a drop", metadata: ["host": .string(LogRedaction.host(url) ?? "?")])
        sendRequest()
    }

    /// Sends the current attempt's request (AsyncHTTPClient, or the legacy path for a known
    /// SHOUTcast v1 server). Call with the lock held.
    private func sendRequest() {
        do {
            try health.begin()
            requestLog.started(range: startOffset)
            if LegacyIcyServers.isKnown(url) {
                requestLog.legacyServer(known: true)
                startLegacyRequest()
            } else {
                attempt.path = .client
                let current = attempt
                let request = try HTTPClient.Request(url: url.absoluteString, method: .GET, headers: requestHeaders)
                let running = httpClient.execute(request: request, delegate: BodyDelegate(receiver: Receiver(source: self, attempt: current)))
                // Some failures (a redirect cycle) end the task without reaching the delegate.
                running.futureResult.whenFailure { [weak self] error in self?.fail(error, via: current) }
                task = running
            }
        } catch {
            let mapped = HTTPErrorMapping.map(error)
            phase = .failed(mapped)
            health.abandoned()
            condition.broadcast()
            if reopening {
                reopening = false
                connection.tell(.dropped(mapped))
            }
        }
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
        attempt.path = .legacy
        legacyRequest = LegacyIcyRequest(
            url: url, headers: requestHeaders, group: httpClient.eventLoopGroup,
            connectTimeout: .milliseconds(Int64(ResilienceDefaults.connectTimeout * 1000)),
            sink: Receiver(source: self, attempt: attempt))
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
            case .failed where awaitingReopen, .ended where awaitingReopen:
                // Between reconnect attempts: the next one may bring audio.
                condition.wait()
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
        private let attempt: Attempt
        private var demuxer: IcyDemuxer?

        init(source: HTTPByteSource, attempt: Attempt) {
            self.source = source
            self.attempt = attempt
        }

        func head(_ head: HTTPResponseHead) throws {
            guard let source else { throw CancellationError() }
            demuxer = try source.handleHead(status: Int(head.status.code), headers: head.headers, attempt: attempt)
        }

        func body(_ buffer: ByteBuffer, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
            guard let source, var demuxer else { return eventLoop.makeFailedFuture(CancellationError()) }
            do {
                let output = try demuxer.feed(buffer.readableBytesView)
                self.demuxer = demuxer
                return source.deliver(output, received: buffer.readableBytes, attempt: attempt, on: eventLoop)
            } catch {
                source.fail(error, via: attempt)
                return eventLoop.makeFailedFuture(error)
            }
        }

        func ended() {
            guard let source else { return }
            do {
                try demuxer?.finish()
                source.bodyEnded(attempt: attempt)
            } catch {
                source.fail(error, via: attempt)
            }
        }

        func failed(_ error: any Error) { source?.fail(error, via: attempt) }
    }

    /// Takes one chunk's audio into the ring (what does not fit waits in `pending`) and hands its
    /// titles to `onMetadata`. The returned future completes when the client may read on.
    private func deliver(_ output: IcyOutput, received: Int, attempt from: Attempt, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        let result: EventLoopFuture<Void>? = condition.withLock {
            guard isOpen, from == attempt else { return nil }
            _bytesReceived += received
            _lastByteAt = Self.now()
            connection.tell(.receiving)
            // A live stream's audio goes through the splice, which drops what a reconnect repeats.
            let audio = endOfBodyIsEnd ? output.audio : splice.feed(output.audio)
            let written = ring.write(audio, from: 0)
            condition.broadcast()
            guard written < audio.count else { return eventLoop.makeSucceededVoidFuture() }
            // A sink takes one part at a time (`HTTPResponseSink`): a second one here would replace
            // the bytes still waiting.
            assert(pending == nil, "a body part came before the last one was taken")
            let promise = eventLoop.makePromise(of: Void.self)
            pending = (audio, written, promise)
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

    private func bodyEnded(attempt from: Attempt) {
        let droppedLive: Bool? = condition.withLock {
            guard from == attempt else { return nil }
            let live = !endOfBodyIsEnd && isOpen
            if live {
                // Opening bytes held for the join are the last of this connection: they count.
                let held = splice.flush()
                if !held.isEmpty { _ = ring.write(held, from: 0) }
                // The player answers the drop: it asks again (`reopen`) or gives up (`abandon`).
                awaitingReopen = connection.answersDrops
            }
            reopening = false
            if isOpen { phase = .ended }
            condition.broadcast()
            return live
        }
        guard let droppedLive else { return }
        requestLog.ended(bytes: bytesReceived)
        // A live stream never ends: the end of its body is a dropped connection.
        if droppedLive { connection.tell(.dropped(PlaybackError(.connectionLost, underlying: "the live stream's body ended"))) }
    }

    /// Checks the status and content type, reads the headers; returns the demuxer to use.
    private func handleHead(status: Int, headers responseHeaders: HTTPHeaders, attempt from: Attempt) throws(PlaybackError) -> IcyDemuxer {
        guard condition.withLock({ from == attempt }) else { throw PlaybackError(.cancelled, underlying: "a request this source left") }
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
            reopening = false
            awaitingReopen = false
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
    private func fail(_ error: any Error, via reporter: Attempt? = nil, toldByPlayer: Bool = false) {
        if let reporter {
            let proceed: Bool = condition.withLock {
                guard reporter == attempt else { return false }
                guard reporter.path == .client, Self.isIcyStatusLine(error), isOpen, !_headersReceived || reopening else { return true }
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
        // A reopen in the background that finds nobody listening is not held against the host:
        // those attempts are few, quick and bounded by the buffer, and an open breaker would keep
        // the visible reconnect from the server for half a minute after it is back.
        if condition.withLock({ reopening }) { health.abandoned() } else { health.failed(mapped) }
        condition.lock()
        var waiter: EventLoopPromise<Void>?
        var dropped = false
        if isOpen {
            if case .streaming = phase, !endOfBodyIsEnd, !toldByPlayer { dropped = true }
            // A reopen that fails before an answer is a drop again: the player decides what next.
            if reopening, !toldByPlayer { dropped = true }
            // The player answers the drop: it asks again (`reopen`) or gives up (`abandon`).
            if dropped { awaitingReopen = connection.answersDrops }
            reopening = false
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
        condition.withLock {
            awaitingReopen = false
            condition.broadcast()
        }
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
