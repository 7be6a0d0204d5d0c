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
/// (`GETRequest`: `Icy-MetaData: 1` and the User-Agent) through AsyncHTTPClient's delegate API, which follows up to
/// `StreamingLimits.maxRedirects` redirects (when the default `SharedHTTPClient.client` is used; a
/// caller-supplied client follows its own redirect configuration), and moves the body through an
/// `IcyDemuxer` into a bounded ring of `capacity` bytes (`ByteRingStream`, the reader every network
/// source shares), all on the client's event loop (never the
/// Swift concurrency pool, whose few threads may be busy). When the ring is full the client stops
/// reading (TCP backpressure reaches the server); `read` frees space and lets it go on. `close()` cancels the
/// request and wakes blocked readers, which then throw `.cancelled`.
///
/// Response handling: non-2xx -> `PlaybackError.from(httpStatus:retryAfter:)` (an HTTP-date
/// `Retry-After` becomes `.seconds` relative to the injected wall clock `now`); `Content-Type:
/// text/html` -> `.wrongContentType`;
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
/// client's TCP connect timeout still ends a connect attempt that never completes.) When bytes
/// arrive is a fact too (`receiving`), stamped on the player's clock by whoever listens. The one
/// wait with a time limit, `waitForResponse(timeout:)`, runs on the injected `clock`. Transport
/// errors are mapped by `HTTPErrorMapping` (refused -> `connectionFailed`, DNS -> `dnsFailure`,
/// ...). Errors are sticky.
///
/// Thread-safety: every mutable field is guarded by the stream's lock (`ByteRingStream.locked`);
/// `onMetadata` is called on the event loop, outside the lock. `read` blocks its thread: call it
/// from a dedicated thread (the decoder's), never from the Swift concurrency pool or an event loop.
/// `@unchecked Sendable`: that lock is the ring's `NSCondition`, so a field changes together with
/// the ring's state; the compiler cannot see it, and a `Mutex` would be a second lock.
///
/// Ownership: the running request keeps the source alive; the owner must call `close()` (a live
/// stream never ends by itself).
package final class HTTPByteSource: ByteSource, @unchecked Sendable {
    package let url: URL
    let transfers: TransferCounters?
    /// Called on the client's event loop for every ICY metadata block (titles), in stream order.
    package let onMetadata: (@Sendable (IcyMetadata) -> Void)?

    let httpClient: HTTPClient
    let endOfBodyIsEnd: Bool
    let request: GETRequest
    let logger: Logger
    let health: ConnectionHealth
    let clock: any Clock<Duration>
    let now: @Sendable () -> Date
    let stream: ByteRingStream

    /// Which client carries the request: a report from the other one (AsyncHTTPClient failing
    /// after the request moved to the legacy path) is stale and ignored.
    enum RequestPath { case client, legacy }

    /// One request of this source: its connection's number in the stream (a reopen makes a new
    /// one) and its client. Reports of any other request than the current one are stale and ignored.
    struct Attempt: Equatable {
        var number: Int
        var path: RequestPath
    }

    // Guarded by the stream's lock.
    var path = RequestPath.client
    var task: HTTPClient.Task<Void>?
    var legacyRequest: LegacyIcyRequest?
    var requestLog: HTTPRequestLog
    /// Joins a reopened connection's audio to what was received (live streams only).
    var splice = OverlapSplice()
    var _stationInfo = IcyStationInfo(headers: [:])
    var _contentType: String?
    var _httpStatus: Int?
    var _bytesReceived = 0
    var _responseInfo: HTTPResponseInfo?

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
    ///   - transfers: where the body's bytes are counted (as `stream`); nil: nowhere.
    ///   - clock: what `waitForResponse(timeout:)` measures its limit on.
    ///   - onMetadata: receives each ICY metadata block.
    ///   - now: the wall clock an HTTP-date `Retry-After` is read against.
    package init(
        url: URL,
        client: HTTPClient = SharedHTTPClient.client,
        connection: ConnectionLink = ConnectionLink(),
        capacity: Int = 1 << 20,
        endOfBodyIsEnd: Bool = false,
        startOffset: Int64? = nil,
        requestsIcyMetadata: Bool = true,
        logger: Logger = Logger(label: "tonearm.http", factory: { _ in SwiftLogNoOpLogHandler() }),
        breakers: HostCircuitBreakers? = nil,
        transfers: TransferCounters? = nil,
        clock: any Clock<Duration> = SystemClock(),
        onMetadata: (@Sendable (IcyMetadata) -> Void)? = nil,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.health = ConnectionHealth(breakers: breakers, url: url)
        self.url = url
        self.transfers = transfers
        self.httpClient = client
        self.endOfBodyIsEnd = endOfBodyIsEnd
        self.request = GETRequest(
            url, asksForIcyMetadata: requestsIcyMetadata, range: startOffset.map { GETRequest.ByteRange(from: max(0, $0)) })
        self.onMetadata = onMetadata
        self.clock = clock
        self.now = now
        // A live stream's end is a drop: a reader gets the error once the ring is empty.
        self.stream = ByteRingStream(
            capacity: capacity, connection: connection,
            endOfStream: endOfBodyIsEnd ? nil : PlaybackError(.connectionLost, underlying: "the live stream's body ended"))
        self.requestLog = HTTPRequestLog(logger: logger, url: url)
        self.logger = logger
    }

    deinit {
        task?.cancel()
        legacyRequest?.cancel()
    }

    /// How long a live stream's connection waits between reads while its reader is well ahead. A
    /// server sends a live stream as it plays, in pieces of a kilobyte or two, and every read costs
    /// the same wake-up and HTTP parsing however small it is; paused, the pieces gather in the
    /// socket and a quarter-second of a 128 kbit/s stream arrives in one read. The reader ends a
    /// pause early whenever it has read everything, so no decoder waits on it.
    ///
    /// Bytes left in the socket are lost if the server resets the connection, so the connection
    /// pauses only while the reader has `aheadToPause` of audio decoded: never while a stream
    /// starts (a server's opening burst is read at once, as before) or refills after a gap.
    static let readPause = TimeAmount.milliseconds(250)
    static let aheadToPause = 1.0

    // MARK: - Observed state

    /// Station details from the response's `icy-*` headers (empty before the head arrives).
    package var stationInfo: IcyStationInfo { stream.peek { _ in _stationInfo } }
    /// The response's `Content-Type`, once the head arrived.
    package var contentType: String? { stream.peek { _ in _contentType } }
    /// The final response's status, once the head arrived.
    package var httpStatus: Int? { stream.peek { _ in _httpStatus } }
    /// What the final response head said about ranges, length and version; nil before the head.
    /// Kept for refused statuses too (a 416 tells the file's size).
    package var responseInfo: HTTPResponseInfo? { stream.peek { _ in _responseInfo } }
    /// Body bytes received so far (before demuxing, so metadata counts too).
    package var bytesReceived: Int { stream.peek { _ in _bytesReceived } }
    /// Bytes received and not yet read (what the ring holds, and a chunk waiting for room).
    package var bufferedBytes: Int { stream.bufferedBytes }

    // MARK: - Control

    /// Issues the request (once; later calls do nothing).
    package func start() {
        guard let number = stream.start(onAbandon: { [weak self] in self?.abandon($0) }, onReopen: { [weak self] in self?.reopen() })
        else { return }
        send(number)
    }

    /// Asks for the live stream again after a drop, keeping what the ring holds; the new audio
    /// joins the old without repeats. Does nothing unless the current connection dropped (its
    /// body ended or it failed by itself), or for a finite file.
    package func reopen() {
        let reopened: (number: Int, running: HTTPClient.Task<Void>?, legacy: LegacyIcyRequest?)? = stream.locked { state in
            guard !endOfBodyIsEnd, !state.reopening else { return nil }
            switch state.phase {
            case .ended, .failed: break
            case .idle, .connecting, .answered, .closed: return nil
            }
            defer {
                task = nil
                legacyRequest = nil
            }
            splice.newConnection()
            requestLog = HTTPRequestLog(logger: logger, url: url)
            return (state.reconnect(), task, legacyRequest)
        }
        guard let reopened else { return }
        reopened.running?.cancel()
        reopened.legacy?.cancel()
        logger.debug("live stream asked for again after a drop", metadata: ["host": .string(LogRedaction.host(url) ?? "?")])
        send(reopened.number)
    }

    /// Blocks until the response head arrived (true), the source ended, failed or closed, or
    /// `timeout` passed on the source's clock (nil: no limit; in the player, the state machine
    /// abandons a connection that does not answer). Throws the source's error when it failed
    /// before any byte was read.
    @discardableResult
    package func waitForResponse(timeout: Duration? = nil) throws(PlaybackError) -> Bool {
        start()
        switch try stream.waitForAnswer(tellsDry: true, timeout: timeout, clock: clock) {
        case .answered: return true
        case .ended, .timedOut: return false
        case .closed: throw PlaybackError(.cancelled, underlying: "source closed")
        }
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlaybackError) -> Int {
        guard buffer.count > 0 else { return 0 }
        start()
        return try stream.read(into: buffer)
    }

    package func close() {
        let (running, legacy, log, bytes) = stream.locked { state in
            state.close()
            return (task, legacyRequest, requestLog, _bytesReceived)
        }
        log.ended(bytes: bytes, closed: true)
        running?.cancel()
        legacy?.cancel()
        health.abandoned()
    }

    // MARK: - Requests

    /// Sends connection `number`'s request: through AsyncHTTPClient, or the legacy path for a
    /// known SHOUTcast v1 server. Never with the lock held: a client may report at once.
    func send(_ number: Int) {
        let log = stream.peek { _ in requestLog }
        do {
            try health.begin()
            log.started(range: request.range?.from)
            if LegacyIcyServers.isKnown(url) {
                log.legacyServer(known: true)
                sendLegacy(number)
                return
            }
            let attempt = Attempt(number: number, path: .client)
            let current = stream.locked { state -> Bool in
                guard state.isCurrent(number) else { return false }
                path = .client
                return true
            }
            guard current else { return }
            let running = httpClient.execute(
                request: try request.delegateRequest(), delegate: BodyDelegate(receiver: Receiver(source: self, attempt: attempt)))
            // Some failures (a redirect cycle) end the task without reaching the delegate.
            running.futureResult.whenFailure { [weak self] error in self?.fail(error, via: attempt) }
            let kept = stream.locked { state in
                guard state.isCurrent(number), path == .client else { return false }
                task = running
                return true
            }
            if !kept { running.cancel() }
        } catch {
            let mapped = HTTPErrorMapping.map(error)
            health.abandoned()
            // A reopen that cannot even be sent is a drop again: the player decides what next.
            stream.locked { state in state.fail(mapped, of: number, asDrop: state.reopening) }
        }
    }

    /// Sends connection `number`'s request through the legacy ICY path.
    func sendLegacy(_ number: Int) {
        let current = stream.locked { state -> Bool in
            guard state.isCurrent(number) else { return false }
            path = .legacy
            return true
        }
        guard current else { return }
        let legacy = LegacyIcyRequest(
            request: request, group: httpClient.eventLoopGroup,
            connectTimeout: .milliseconds(Int64(ResilienceDefaults.connectTimeout * 1000)),
            sink: Receiver(source: self, attempt: Attempt(number: number, path: .legacy)))
        let kept = stream.locked { state in
            guard state.isCurrent(number), path == .legacy else { return false }
            legacyRequest = legacy
            return true
        }
        if !kept { legacy.cancel() }
    }

    /// The player decided the connection is dead (`ConnectionLink.abandon`): fail with its cause
    /// and end the request.
    func abandon(_ cause: PlaybackError) {
        let (log, bytes, wasReopening, running, legacy) = stream.locked { state in
            let before = (requestLog, _bytesReceived, state.reopening, task, legacyRequest)
            state.abandon(cause)
            return before
        }
        log.ended(bytes: bytes, error: cause)
        // A reopen in the background that finds nobody listening is not held against the host.
        if wasReopening { health.abandoned() } else { health.failed(cause) }
        running?.cancel()
        legacy?.cancel()
    }
}
