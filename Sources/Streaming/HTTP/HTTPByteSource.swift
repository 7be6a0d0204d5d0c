import AsyncHTTPClient
import Foundation
import NIOCore
import PlayerCore

/// Bytes of an HTTP(S) stream (internet radio, or a finite file with `endOfBodyIsEnd`), with ICY
/// metadata removed, for the decoder's blocking `read(into:)`.
///
/// Lifecycle: `start()` issues the request (`read` calls it too, so starting is optional); a Task
/// runs `GET` with `Icy-MetaData: 1` and a User-Agent through AsyncHTTPClient, follows up to
/// `StreamingLimits.maxRedirects` redirects (when the default `HTTPByteSource.client` is used; a
/// caller-supplied client follows its own redirect configuration), and moves the body through an
/// `IcyDemuxer` into a bounded ring of `capacity` bytes. When the ring is full the body task waits
/// (TCP backpressure reaches the server); `read` frees space and wakes it. `close()` cancels the
/// request and wakes blocked readers, which then throw `.cancelled`.
///
/// Response handling: non-2xx -> `PlaybackError.from(httpStatus:retryAfter:)` (an HTTP-date
/// `Retry-After` becomes `.seconds` relative to now); `Content-Type: text/html` -> `.wrongContentType`;
/// `icy-metaint` enables demuxing, and each metadata block goes to `onMetadata`; the `icy-*`
/// headers become `stationInfo`.
///
/// End of body: for a live stream (the default) the end of the body is a dropped connection, never
/// a normal end: `read` returns what is buffered and then throws `.connectionLost`, so the
/// reconnect supervisor retries (Icecast dying looks exactly like this to a listener). With
/// `endOfBodyIsEnd: true` (finite files, episodes) `read` returns 0 instead.
///
/// Timeouts (enforced here, independent of the client's configuration): no response head within
/// `connectTimeout` seconds of the start -> `.connectionTimeout`; no body bytes for `readTimeout`
/// seconds while the ring has room -> `.connectionTimeout`. Transport errors are mapped by
/// `HTTPErrorMapping` (refused -> `connectionFailed`, DNS -> `dnsFailure`, ...). Errors are sticky.
///
/// Thread-safety: every mutable field is guarded by `condition`; `onMetadata` is called on the body
/// task, outside the lock. `read` blocks its thread: call it from a dedicated thread (the decoder's),
/// never from the Swift concurrency pool, which the body task itself needs.
///
/// Ownership: the running request keeps the source alive; the owner must call `close()` (a live
/// stream never ends by itself).
public final class HTTPByteSource: ByteSource, @unchecked Sendable {
    /// Tonearm's client for streams: at most `StreamingLimits.maxRedirects` redirects, a failed
    /// connection fails the request at once (no silent re-dialling until a timeout; the reconnect
    /// supervisor owns retries), no automatic decompression, no client-side read timeout (this
    /// class enforces its own). Lives for the whole process.
    public static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .follow(max: StreamingLimits.maxRedirects, allowCycles: false),
            timeout: .init(connect: .milliseconds(Int64(ResilienceDefaults.connectTimeout * 1000)), read: nil),
            decompression: .disabled)
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// The User-Agent sent with every request.
    public static let userAgent = "Tonearm/1.0 (Linux)"

    public let url: URL
    /// Called on the body task for every ICY metadata block (titles), in stream order.
    public let onMetadata: (@Sendable (IcyMetadata) -> Void)?

    private let httpClient: HTTPClient
    private let connectTimeout: Double
    private let readTimeout: Double
    private let endOfBodyIsEnd: Bool

    private enum Phase {
        case idle, connecting, streaming, ended, failed(PlaybackError), closed
    }

    private let condition = NSCondition()
    private var phase: Phase = .idle
    private var ring: ByteRing
    private var spaceWaiter: CheckedContinuation<Void, Never>?
    private var waitingForSpace = false
    private var startedAt: Double = 0
    private var lastActivity: Double = 0
    private var task: Task<Void, Never>?
    private var watchdog: Task<Void, Never>?
    private var _stationInfo = IcyStationInfo(headers: [:])
    private var _contentType: String?
    private var _httpStatus: Int?
    private var _bytesReceived = 0
    private var _lastByteAt: Double?
    private var _headersReceived = false

    /// - Parameters:
    ///   - client: defaults to `HTTPByteSource.client` (redirect cap, fail-fast connects).
    ///   - capacity: the ring's size in bytes (audio after demuxing).
    ///   - endOfBodyIsEnd: true for finite files: the end of the body is the end of the stream.
    ///   - onMetadata: receives each ICY metadata block.
    public init(
        url: URL,
        client: HTTPClient = HTTPByteSource.client,
        connectTimeout: Double = ResilienceDefaults.connectTimeout,
        readTimeout: Double = ResilienceDefaults.readTimeout,
        capacity: Int = 1 << 20,
        endOfBodyIsEnd: Bool = false,
        onMetadata: (@Sendable (IcyMetadata) -> Void)? = nil
    ) {
        self.url = url
        self.httpClient = client
        self.connectTimeout = connectTimeout
        self.readTimeout = readTimeout
        self.endOfBodyIsEnd = endOfBodyIsEnd
        self.onMetadata = onMetadata
        self.ring = ByteRing(capacity: capacity)
    }

    deinit {
        task?.cancel()
        watchdog?.cancel()
    }

    // MARK: - Observed state

    /// Station details from the response's `icy-*` headers (empty before the head arrives).
    public var stationInfo: IcyStationInfo { condition.withLock { _stationInfo } }
    /// The response's `Content-Type`, once the head arrived.
    public var contentType: String? { condition.withLock { _contentType } }
    /// The final response's status, once the head arrived.
    public var httpStatus: Int? { condition.withLock { _httpStatus } }
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
        startedAt = Self.now()
        lastActivity = startedAt
        task = Task { [weak self] in await self?.run() }
        watchdog = Task { [weak self] in await self?.watch() }
        condition.unlock()
    }

    /// Blocks until the response head arrived (true), the source ended, failed or closed, or
    /// `timeout` passed. Throws the source's error when it failed before any byte was read.
    @discardableResult
    public func waitForResponse(timeout: Double) throws(PlaybackError) -> Bool {
        start()
        let deadline = Date().addingTimeInterval(timeout)
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
            if !condition.wait(until: deadline) { return _headersReceived }
        }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlaybackError) -> Int {
        guard buffer.count > 0 else { return 0 }
        start()
        condition.lock()
        while true {
            if !ring.isEmpty {
                let count = ring.read(into: buffer)
                let waiter = spaceWaiter
                spaceWaiter = nil
                condition.unlock()
                waiter?.resume()
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
                condition.wait()
            }
        }
    }

    public func close() {
        condition.lock()
        phase = .closed
        let waiter = spaceWaiter
        spaceWaiter = nil
        let running = task
        let timer = watchdog
        condition.broadcast()
        condition.unlock()
        waiter?.resume()
        running?.cancel()
        timer?.cancel()
    }

    // MARK: - Body task

    private func run() async {
        do {
            var request = HTTPClientRequest(url: url.absoluteString)
            request.method = .GET
            request.headers.add(name: "User-Agent", value: Self.userAgent)
            request.headers.add(name: "Icy-MetaData", value: "1")
            request.headers.add(name: "Accept", value: "*/*")
            let response = try await httpClient.execute(request, deadline: .distantFuture)
            try Task.checkCancellation()
            var demuxer = try handleHead(response)
            for try await chunk in response.body {
                let output = try demuxer.feed(chunk.readableBytesView)
                let stillOpen: Bool = condition.withLock {
                    _bytesReceived += chunk.readableBytes
                    let now = Self.now()
                    _lastByteAt = now
                    lastActivity = now
                    return isOpen
                }
                guard stillOpen else { return }
                if let onMetadata { output.metadata.forEach(onMetadata) }
                guard await append(output.audio) else { return }
            }
            try demuxer.finish()
            condition.withLock {
                if isOpen { phase = .ended }
                condition.broadcast()
            }
        } catch {
            fail(HTTPErrorMapping.map(error))
        }
        watchdogCancel()
    }

    /// Checks the status and content type, reads the headers; returns the demuxer to use.
    private func handleHead(_ response: HTTPClientResponse) throws(PlaybackError) -> IcyDemuxer {
        let status = Int(response.status.code)
        guard (200...299).contains(status) else {
            let retryAfter = response.headers.first(name: "Retry-After").flatMap { RetryAfter.parse($0) }
            throw PlaybackError.from(httpStatus: status, retryAfter: retryAfter.map { Self.relative($0) })
                ?? PlaybackError(.httpClientError, httpStatus: status, underlying: "unexpected HTTP status \(status)")
        }
        let contentType = response.headers.first(name: "Content-Type")
        var headers: [String: String] = [:]
        for header in response.headers where headers[header.name] == nil { headers[header.name] = header.value }
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
        let demuxer = try IcyDemuxer(metaIntervalHeader: response.headers.first(name: "icy-metaint"))
        condition.withLock {
            _headersReceived = true
            if case .connecting = phase { phase = .streaming }
            lastActivity = Self.now()
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

    /// Puts all of `bytes` into the ring, waiting for space as needed; false once the source is
    /// closed or failed.
    private func append(_ bytes: [UInt8]) async -> Bool {
        var offset = 0
        while true {
            let wait: Bool = condition.withLock {
                guard isOpen else { return false }
                offset += ring.write(bytes, from: offset)
                condition.broadcast()
                return offset < bytes.count
            }
            guard isOpenLocked() else { return false }
            if !wait { return true }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                condition.lock()
                if ring.freeSpace > 0 || !isOpen {
                    condition.unlock()
                    continuation.resume()
                    return
                }
                spaceWaiter = continuation
                waitingForSpace = true
                condition.unlock()
            }
            condition.withLock {
                waitingForSpace = false
                lastActivity = Self.now()
            }
        }
    }

    /// True while the source may still deliver bytes. Call with the lock held.
    private var isOpen: Bool {
        switch phase {
        case .idle, .connecting, .streaming: return true
        case .ended, .failed, .closed: return false
        }
    }

    private func isOpenLocked() -> Bool { condition.withLock { isOpen } }

    /// Records the first error (errors are sticky; a closed source stays closed) and wakes readers.
    private func fail(_ error: PlaybackError) {
        condition.lock()
        var waiter: CheckedContinuation<Void, Never>?
        if isOpen {
            phase = .failed(error)
            waiter = spaceWaiter
            spaceWaiter = nil
        }
        condition.broadcast()
        condition.unlock()
        waiter?.resume()
    }

    private func watchdogCancel() {
        let timer = condition.withLock { watchdog }
        timer?.cancel()
    }

    // MARK: - Watchdog

    /// Enforces `connectTimeout` (until the head) and `readTimeout` (between body chunks, except
    /// while the ring is full and the reader is the slow side).
    private func watch() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(100))
            let expired: PlaybackError? = condition.withLock {
                let now = Self.now()
                switch phase {
                case .idle, .connecting:
                    if now - startedAt > connectTimeout {
                        return PlaybackError(.connectionTimeout, underlying: "no response within \(connectTimeout) s")
                    }
                case .streaming:
                    if !waitingForSpace, now - lastActivity > readTimeout {
                        return PlaybackError(.connectionTimeout, underlying: "no data for \(readTimeout) s")
                    }
                case .ended, .failed, .closed:
                    return PlaybackError(.cancelled)  // finished: stop watching
                }
                return nil
            }
            guard let expired else { continue }
            if expired.code == .cancelled { return }
            fail(expired)
            let running = condition.withLock { task }
            running?.cancel()
            return
        }
    }
}
