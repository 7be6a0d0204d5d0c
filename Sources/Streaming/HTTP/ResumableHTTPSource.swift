import AsyncHTTPClient
import Foundation
import Logging
import PlayerCore

/// The bytes of a finite file over HTTP (a podcast episode) that survive a dropped connection:
/// the decoder sees one uninterrupted body, byte for byte, and can seek to any byte.
///
/// It reads through one `HTTPByteSource` at a time and counts the bytes it has handed to the
/// decoder. When the connection drops before the known end, or the player gives it up as stalled
/// (`ConnectionLink.abandon`: the state machine decides what is too long a silence, not this
/// source), it asks again with `Range: bytes=<that count>-` and checks the answer before using it:
/// - 206 whose `Content-Range` starts there: the body continues the file; nothing is heard twice.
/// - 200 (the server ignores `Range`): the new body starts at byte 0, so the bytes already heard are
///   read and thrown away (the "reopen and seek" fallback). It costs downloading the file again up
///   to the offset (`bytesDiscarded` counts it): about 1 MB a minute of 128 kbit/s audio.
/// - 416 at or past the end: the file is over. A 206 that starts after the offset cannot be joined
///   (`malformedData`).
/// - A different total size or `ETag` than the first answer: the file changed under us (a new
///   upload, dynamic ad insertion), and splicing two files would be damaged audio:
///   `sourceChanged`, which the user may retry (the player reopens it at the same time position).
///
/// After a drop (or a connection given up) before the known end, one new request goes out at once:
/// most drops are single, and the listener hears nothing of them. This source never waits: when
/// that request fails too, `read` throws its (retryable) error, and the player's reconnect policy,
/// the one backoff loop there is, takes over: it shows the countdown, honours `Retry-After`, spends
/// no attempt while offline, and reopens the episode at the position heard (the decoder seeks
/// there). Once bytes flow again the next drop gets its immediate request too. Requests never ask
/// for ICY metadata. The first request (`open()`) is tried once, for the same reason.
///
/// `seek(to:)` only records the offset and closes the current request; the next `read` asks for
/// the new range. A seek to where the reader already is costs nothing (demuxers do that often).
///
/// Thread model (as `HTTPByteSource`): `read`, `seek` and `open` block and are called from one
/// thread at a time (the decoder's), never an event loop or the Swift concurrency pool; `close()`
/// may come from any thread and wakes a blocked read, which then throws `.cancelled`. Mutable state
/// is guarded by `condition`; errors other than a retried drop are sticky. Each request reports its
/// connection's facts on the link given at creation (see `HTTPByteSource`); a dropped request is
/// not reported as a drop, since this source resumes it.
///
/// `@unchecked Sendable`: its fields are guarded by an `NSCondition`, whose waits `Mutex` does not
/// offer, and the compiler cannot see which lock guards a field.
package final class ResumableHTTPSource: SeekableByteSource, @unchecked Sendable {
    /// Buffering and the resilience core.
    package struct Configuration: Sendable {
        /// Bytes held between the socket and the decoder.
        package var capacity: Int = 64 * 1024
        /// Asked before every request (the first and each resume) and told how its connection
        /// went; a host whose breaker is open fails the request with `circuitOpen`. Nil: none.
        package var breakers: HostCircuitBreakers?
        /// Where the bytes of every request are counted (as `stream`). Nil: nowhere.
        package var transfers: TransferCounters?

        package init() {}
    }

    package let url: URL
    private let client: HTTPClient
    private let configuration: Configuration
    private let connection: ConnectionLink
    private let logger: Logger

    private let condition = NSCondition()
    /// The request bytes come from now; nil between a drop or seek and the next read.
    private var current: HTTPByteSource?
    /// The file offset of the next byte the reader gets.
    private var offset: Int64 = 0
    /// The file as the first answer described it.
    private var knownSize: Int64?
    private var knownETag: String?
    private var _contentType: String?
    /// A 416 (or a body that ended exactly at the known size) said there is nothing after `offset`.
    private var atEnd = false
    private var closed = false
    /// An error that ends the source; every later call throws it.
    private var failure: PlaybackError?
    private var _requestCount = 0
    private var _bytesDiscarded: Int64 = 0

    /// - Parameters:
    ///   - client: defaults to `SharedHTTPClient.client` (redirect cap, fail-fast connects).
    ///   - connection: where each request's connection facts go, and how the player gives the
    ///     current one up; a link nobody listens to by default.
    ///   - logger: receives each request's records and every resume decision; silent by default.
    package init(
        url: URL, client: HTTPClient = SharedHTTPClient.client, configuration: Configuration = Configuration(),
        connection: ConnectionLink = ConnectionLink(),
        logger: Logger = Logger(label: "tonearm.http", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.connection = connection
        self.logger = logger
        self.url = url
        self.client = client
        self.configuration = configuration
    }

    deinit {
        current?.close()
    }

    // MARK: - Observed state

    /// The file's total size once an answer said it.
    package var size: Int64? { condition.withLock { knownSize } }
    /// The offset of the next byte `read` returns.
    package var position: Int64 { condition.withLock { offset } }
    /// The first answer's `Content-Type` (a format hint for the decoder).
    package var contentType: String? { condition.withLock { _contentType } }
    /// Requests made so far (the first, resumes after drops, seeks).
    package var requestCount: Int { condition.withLock { _requestCount } }
    /// Bytes downloaded again and thrown away because a server ignored `Range`.
    package var bytesDiscarded: Int64 { condition.withLock { _bytesDiscarded } }

    // MARK: - Control

    /// Makes the request for the current offset now (once) and checks its head, so a missing or
    /// refused episode fails the load at once. Not retried (see the type's documentation).
    package func open() throws(PlaybackError) {
        _ = try currentOrOpen()
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlaybackError) -> Int {
        guard buffer.count > 0 else { return 0 }
        var failures = 0
        while true {
            do throws(PlaybackError) {
                guard let source = try currentOrOpen() else { return 0 }
                let count = try source.read(into: buffer)
                if count > 0 {
                    condition.withLock { offset += Int64(count) }
                    return count
                }
                if let unfinished = bodyEndedEarly() { throw unfinished }
                return 0
            } catch {
                try recover(from: error, failures: &failures)
            }
        }
    }

    package func seek(to target: Int64) throws(PlaybackError) {
        condition.lock()
        try unlockAndThrowIfUnusable()
        let target = max(0, target)
        guard target != offset else {
            condition.unlock()
            return
        }
        offset = target
        atEnd = false
        let dropped = current
        current = nil
        condition.unlock()
        dropped?.close()
    }

    package func close() {
        condition.lock()
        closed = true
        let dropped = current
        current = nil
        condition.broadcast()
        condition.unlock()
        dropped?.close()
    }

    /// With the lock held: a closed or failed source releases the lock and throws why.
    private func unlockAndThrowIfUnusable() throws(PlaybackError) {
        if closed {
            condition.unlock()
            throw PlaybackError(.cancelled, underlying: "source closed")
        }
        if let failure {
            condition.unlock()
            throw failure
        }
    }

    // MARK: - Requests

    /// The request to read from, opening (and checking) one at the current offset when there is
    /// none; nil at the end of the file.
    private func currentOrOpen() throws(PlaybackError) -> HTTPByteSource? {
        condition.lock()
        try unlockAndThrowIfUnusable()
        if let current {
            condition.unlock()
            return current
        }
        if atEnd || (knownSize.map { offset >= $0 } ?? false) {
            condition.unlock()
            return nil
        }
        let start = offset
        let source = HTTPByteSource(
            url: url, client: client, connection: connection,
            capacity: configuration.capacity, endOfBodyIsEnd: true, startOffset: start > 0 ? start : nil,
            requestsIcyMetadata: false, logger: logger, breakers: configuration.breakers,
            transfers: configuration.transfers)
        current = source
        _requestCount += 1
        condition.unlock()

        let skip: Int64
        do throws(PlaybackError) {
            guard try source.waitForResponse() else {
                throw PlaybackError(.connectionLost, underlying: "the connection ended before a response")
            }
            guard let info = source.responseInfo else {
                throw PlaybackError(.malformedData, underlying: "a response without a head")
            }
            skip = try accept(info, requestedFrom: start)
        } catch {
            if let info = source.responseInfo, info.status == 416 {
                try acceptEnd(info, requestedFrom: start)
                source.close()
                condition.withLock { if current === source { current = nil } }
                return nil
            }
            throw error
        }
        try discard(skip, from: source)
        return source
    }

    /// Checks an answer to a request from `start` against the file first seen; returns how many
    /// bytes of its body come before `start` (to be thrown away).
    private func accept(_ info: HTTPResponseInfo, requestedFrom start: Int64) throws(PlaybackError) -> Int64 {
        let bodyStart: Int64
        if info.status == 206 {
            guard let rangeStart = info.contentRange?.start else {
                throw PlaybackError(.malformedData, underlying: "a 206 answer without a usable Content-Range")
            }
            guard rangeStart <= start else {
                throw PlaybackError(.malformedData, underlying: "asked for byte \(start), the server sent from \(rangeStart)")
            }
            bodyStart = rangeStart
        } else {
            bodyStart = 0  // 200: the server ignored Range (or none was sent) and sends the whole file
        }
        try checkIdentity(size: info.totalSize, etag: info.etag)
        return start - bodyStart
    }

    /// A 416: the end when `start` is at or past the file's size (and the size is the one we know).
    private func acceptEnd(_ info: HTTPResponseInfo, requestedFrom start: Int64) throws(PlaybackError) {
        let total = info.contentRange?.total
        try checkIdentity(size: total, etag: info.etag)
        let size = condition.withLock { knownSize }
        if let end = total ?? size, start < end {
            throw PlaybackError(.sourceChanged, underlying: "byte \(start) was refused as past the end of a \(end)-byte file")
        }
        condition.withLock { atEnd = true }
    }

    /// Remembers the first answer's size and ETag; a later answer that disagrees means the file
    /// changed on the server.
    private func checkIdentity(size: Int64?, etag: String?) throws(PlaybackError) {
        condition.lock()
        defer { condition.unlock() }
        if let size, let known = knownSize, size != known {
            throw PlaybackError(.sourceChanged, underlying: "the file's size changed from \(known) to \(size) bytes")
        }
        if let etag, let known = knownETag, Self.opaqueTag(etag) != Self.opaqueTag(known) {
            throw PlaybackError(.sourceChanged, underlying: "the file's ETag changed")
        }
        if knownSize == nil { knownSize = size }
        if knownETag == nil { knownETag = etag }
        if _contentType == nil { _contentType = current?.contentType }
    }

    /// An ETag without its weak marker: a weak and a strong tag of the same version match.
    private static func opaqueTag(_ tag: String) -> String {
        tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
    }

    /// Reads and drops `count` bytes of `source` (the part of a full answer already heard).
    private func discard(_ count: Int64, from source: HTTPByteSource) throws(PlaybackError) {
        guard count > 0 else { return }
        var left = count
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 1)
        defer { scratch.deallocate() }
        while left > 0 {
            let want = Int(min(Int64(scratch.count), left))
            let got = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: scratch[0..<want]))
            guard got > 0 else {
                throw PlaybackError(.connectionLost, underlying: "the body ended \(left) bytes before the resume offset")
            }
            left -= Int64(got)
            condition.withLock { _bytesDiscarded += Int64(got) }
        }
    }

    /// The body ended: the end of the file, or (before the known size) a connection cut short.
    private func bodyEndedEarly() -> PlaybackError? {
        condition.withLock {
            if let knownSize, offset < knownSize {
                return PlaybackError(.connectionLost, underlying: "the body ended at byte \(offset) of \(knownSize)")
            }
            atEnd = true
            return nil
        }
    }

    /// After a failed request: drops it, and either returns (ask again at once, once per drop) or
    /// throws (closed, not retryable, or the immediate request failed too: the player decides next).
    private func recover(from error: PlaybackError, failures: inout Int) throws(PlaybackError) {
        condition.lock()
        let dropped = current
        current = nil
        if closed {
            condition.unlock()
            dropped?.close()
            throw PlaybackError(.cancelled, underlying: "source closed")
        }
        failures += 1
        guard error.isRetryable, failures <= Self.immediateRequestsPerDrop else {
            logger.resumeDecision(error, failures: failures, offset: offset, delay: nil)
            // Sticky: the decoder never calls again, and the player's reconnect policy decides next.
            failure = error
            condition.unlock()
            dropped?.close()
            throw error
        }
        logger.resumeDecision(error, failures: failures, offset: offset, delay: 0)
        condition.unlock()
        dropped?.close()
    }

    /// New requests made at once after a drop, before the player's reconnect policy takes over.
    static let immediateRequestsPerDrop = 1
}
