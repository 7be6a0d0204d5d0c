import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import PlayerCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

extension NetworkClient {
    /// Downloads `url` into `partialFile`, continuing from the bytes that file already holds.
    ///
    /// Each try asks for the rest with `Range: bytes=<size>-` and `If-Range` (the validators of
    /// the file the bytes belong to) and checks the answer before writing a byte:
    /// - 206 starting at that byte, for the same file: appended.
    /// - 200 (the server ignores ranges, or its file changed and `If-Range` said so): the partial
    ///   file is emptied and the whole body written from byte 0.
    /// - 206 or 416 that contradicts the validators (another length or ETag): emptied, asked again.
    /// - 416 at exactly the known length: the file was already whole.
    ///
    /// The body streams to disk chunk by chunk (never held whole). A body that stops short, a
    /// reset or silence for `options.idleTimeout` fails the try; the retry policy, the host's
    /// breaker and the retry budget decide whether another try continues it, as for every
    /// request of this client. Web pages and other documents are refused as `wrongContentType`
    /// (by `Content-Type`, or by their first bytes), a full disk is `diskFull`.
    ///
    /// - Parameters:
    ///   - validators: what was known of the file when the partial bytes were written; nil when
    ///     nothing was (then a partial file is only continued if the server's answer agrees).
    ///   - onValidators: each answer's validators, before its first byte is written, so the
    ///     caller keeps them beside the partial file for a later run.
    ///   - progress: bytes on disk, at most once per `options.progressStep` and at the end.
    package func download(
        _ url: URL, to partialFile: URL, validators: FileDownload.Validators?, operation: String = "downloadEpisode",
        options: FileDownload.Options = .init(),
        onValidators: @escaping @Sendable (FileDownload.Validators) -> Void = { _ in },
        progress: @escaping @Sendable (FileDownload.Progress) -> Void = { _ in }
    ) async throws(PlaybackError) -> FileDownload.Outcome {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw PlaybackError(.streamUnavailable, underlying: "not an http(s) URL")
        }
        let run = DownloadRun(
            url: url, file: partialFile, known: validators, resumedFrom: Self.fileSize(partialFile), http: http, options: options,
            clock: timeoutClock, now: now, logger: logger, operation: operation, transfers: transfers, onValidators: onValidators,
            progress: progress)
        do throws(PlaybackError) {
            let outcome = try await withRetry(
                operation, policy: options.policy, clock: clock, random: seed.map(SeededRandom.init(seed:)) ?? .systemSeeded(),
                budget: retryBudget, breaker: breakers?.breaker, breakerKey: HostCircuitBreakers.host(of: url),
                statistics: statistics, now: now, onRetry: Self.loggingRetries(onRetry, logger: logger)
            ) {
                try await run.attempt()
            }
            transfers?.downloadEnded(.completed)
            return outcome
        } catch {
            if error.code != .cancelled { transfers?.downloadEnded(.failed) }
            throw error
        }
    }

    /// The size of the file at `url`, 0 when there is none.
    static func fileSize(_ url: URL) -> Int64 {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return 0 }
        return Int64(info.st_size)
    }
}

/// One download's tries: what they share (the validators learnt, the restarts) and one try.
private final class DownloadRun: Sendable {
    let url: URL
    let file: URL
    let http: HTTPClient
    let options: FileDownload.Options
    /// What the silence of a body is measured on (`NetworkClient.timeoutClock`).
    let clock: any Clock<Duration>
    let now: @Sendable () -> Date
    let logger: Logger
    let operation: String
    let transfers: TransferCounters?
    let onValidators: @Sendable (FileDownload.Validators) -> Void
    let progress: @Sendable (FileDownload.Progress) -> Void
    let resumedFrom: Int64
    private let state: Mutex<(known: FileDownload.Validators?, restarts: Int)>

    init(
        url: URL, file: URL, known: FileDownload.Validators?, resumedFrom: Int64, http: HTTPClient, options: FileDownload.Options,
        clock: any Clock<Duration>, now: @escaping @Sendable () -> Date, logger: Logger, operation: String, transfers: TransferCounters?,
        onValidators: @escaping @Sendable (FileDownload.Validators) -> Void, progress: @escaping @Sendable (FileDownload.Progress) -> Void
    ) {
        self.url = url
        self.file = file
        self.http = http
        self.options = options
        self.clock = clock
        self.now = now
        self.logger = logger
        self.operation = operation
        self.transfers = transfers
        self.onValidators = onValidators
        self.progress = progress
        self.resumedFrom = resumedFrom
        self.state = Mutex((known, 0))
    }

    /// Answers that contradict the partial file empty it and ask again, at most this often per
    /// try: a server whose file keeps changing fails the try as `sourceChanged`.
    private static let restartsPerTry = 2

    func attempt() async throws -> FileDownload.Outcome {
        for _ in 0...Self.restartsPerTry {
            if let outcome = try await IdleWatch.run(seconds: options.idleTimeout, on: clock, { watch in try await self.exchange(watch) }) {
                return outcome
            }
        }
        throw PlaybackError(.sourceChanged, underlying: "the file changed on the server at every request")
    }

    /// One request and its body; nil when the partial file was emptied and the caller asks again.
    private func exchange(_ watch: IdleWatch) async throws -> FileDownload.Outcome? {
        let start = NetworkClient.fileSize(file)
        let known = state.withLock { $0.known }
        let request = GETRequest(
            url, accept: "audio/*, video/*;q=0.9, */*;q=0.5",
            range: start > 0 ? GETRequest.ByteRange(from: start, ifRange: known?.ifRange) : nil
        ).clientRequest()
        let fields = ["host": LogRedaction.host(url) ?? "?", "url": LogRedaction.url(url), "operation": operation, "from": String(start)]
        logger.debug("download request", metadata: NetworkClient.metadata(fields))
        let response: HTTPClientResponse
        do {
            // No deadline of the client's own: the idle watch, on the injected clock, also bounds
            // the wait for the head (its silence counts from the start of the try).
            response = try await http.execute(request, deadline: .distantFuture)
        } catch {
            throw HTTPErrorMapping.map(error)
        }
        watch.touch()
        let status = Int(response.status.code)
        let info = HTTPResponseInfo(status: status) { response.headers.first(name: $0) }
        let answered = FileDownload.Validators(
            etag: info.etag,
            lastModified: response.headers.first(name: "Last-Modified").map { TextSanitizer.singleLine($0, maxLength: 64) },
            length: info.totalSize)
        let contradicts = known?.contradicts(answered) ?? false
        var truncate = false
        switch status {
        case 416:
            if start > 0, info.contentRange?.total == start, !contradicts {
                return FileDownload.Outcome(
                    bytes: start, validators: known ?? answered, mediaType: nil, resumedFrom: resumedFrom,
                    restarts: state.withLock { $0.restarts })
            }
            return restart(because: "the server has no bytes past the partial file's end", fields: fields)
        case 206:
            guard info.contentRange?.start == start else {
                throw PlaybackError(.malformedData, underlying: "a 206 answer that does not start at byte \(start)")
            }
            if contradicts || (known == nil && start > 0 && answered.etag == nil && answered.length == nil) {
                return restart(because: "the file changed on the server", fields: fields)
            }
        case 200:
            // The server ignored the range, or its file changed and If-Range said so.
            if start > 0 {
                truncate = true
                logger.notice("download restarts from the first byte", metadata: NetworkClient.metadata(fields.merging(["status": "200"]) { a, _ in a }))
                state.withLock { $0.restarts += 1 }
            }
        default:
            throw HTTPRefusal.error(status: status, retryAfter: response.headers.first(name: "Retry-After"), now: now())
        }
        let mediaType = response.headers.first(name: "Content-Type")?.split(separator: ";").first
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard FileDownload.acceptsMediaType(mediaType) else {
            throw PlaybackError(.wrongContentType, underlying: "Content-Type \(mediaType ?? "?") is not audio")
        }
        // What the partial file belongs to from now on; the length from the first answer that said it.
        var validators = answered
        if validators.length == nil, !truncate, start > 0 { validators.length = known?.length }
        state.withLock { $0.known = validators }
        onValidators(validators)

        let writer = try FileAppender(file, truncate: truncate)
        defer { writer.close() }
        var written = truncate ? 0 : start
        var reported = written
        var checkedHead = written > 0
        do {
            for try await chunk in response.body {
                watch.touch()
                if !checkedHead {
                    checkedHead = true
                    if FileDownload.looksLikeMarkup(chunk.readableBytesView) {
                        throw PlaybackError(.wrongContentType, underlying: "the body is a markup document, not audio")
                    }
                }
                try writer.append(chunk)
                written += Int64(chunk.readableBytes)
                transfers?.received(chunk.readableBytes, as: .download)
                if written - reported >= options.progressStep {
                    reported = written
                    progress(FileDownload.Progress(received: written, total: validators.length))
                }
            }
        } catch {
            throw HTTPErrorMapping.map(error)
        }
        try await writer.sync()
        progress(FileDownload.Progress(received: written, total: validators.length))
        if let total = validators.length, written != total {
            // A body that ended early (a server closing a keep-alive body short): the next try
            // continues from what is on disk.
            throw PlaybackError(.connectionLost, underlying: "the body ended at byte \(written) of \(total)")
        }
        logger.debug(
            "download complete", metadata: NetworkClient.metadata(fields.merging(["status": String(status), "bytes": String(written)]) { a, _ in a }))
        return FileDownload.Outcome(
            bytes: written, validators: validators, mediaType: mediaType, resumedFrom: resumedFrom, restarts: state.withLock { $0.restarts })
    }

    /// Empties the partial file so the next request starts at byte 0.
    private func restart(because reason: String, fields: [String: String]) -> FileDownload.Outcome? {
        logger.notice("download restarts from the first byte", metadata: NetworkClient.metadata(fields.merging(["reason": reason]) { a, _ in a }))
        _ = truncate(file.path, 0)
        state.withLock {
            $0.restarts += 1
            $0.known = nil
        }
        return nil
    }
}

/// Appends bytes to a file with write(2), so a full disk is told as `diskFull` (errno) rather
/// than as whatever Foundation's file handle would make of it.
private final class FileAppender {
    private var descriptor: Int32

    init(_ url: URL, truncate: Bool) throws(PlaybackError) {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (truncate ? O_TRUNC : O_APPEND)
        descriptor = open(url.path, flags, 0o644)
        guard descriptor >= 0 else { throw PlaybackError.from(errno: errno, underlying: "cannot open the download's file") }
    }

    func append(_ buffer: ByteBuffer) throws(PlaybackError) {
        let failure: Int32? = buffer.withUnsafeReadableBytes { bytes -> Int32? in
            var offset = 0
            while offset < bytes.count {
                let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += count
            }
            return nil
        }
        if let failure { throw PlaybackError.from(errno: failure, underlying: "writing the download failed (errno \(failure))") }
    }

    /// Waits until the bytes are on the disk: only then may the caller name the file complete.
    /// On a thread of its own: an fsync can wait for everything else the system has written (on
    /// ext4, seconds to a minute after a large write), and must not hold a thread of the
    /// concurrency pool, which the player needs, meanwhile.
    func sync() async throws(PlaybackError) {
        let descriptor = self.descriptor
        let failure: Int32? = await BlockingCall.onOwnThread { fsync(descriptor) == 0 ? nil : errno }
        if let failure { throw PlaybackError.from(errno: failure, underlying: "syncing the download failed") }
    }

    func close() {
        guard descriptor >= 0 else { return }
        _ = Glibc.close(descriptor)
        descriptor = -1
    }
}

/// Fails a body that has been silent too long: the body calls `touch()` for each sign of life, and
/// a watchdog looks four times per period. Silence is measured on the injected clock (the client's
/// `timeoutClock`), like every time limit of a request.
final class IdleWatch: Sendable {
    private let elapsed: @Sendable () -> Duration
    private let last: Mutex<Duration>

    private init(clock: any Clock<Duration>) {
        elapsed = clock.stopwatch()
        last = Mutex(.zero)
    }

    func touch() {
        let now = elapsed()
        last.withLock { $0 = now }
    }

    private var silence: Duration {
        let now = elapsed()
        return now - last.withLock { $0 }
    }

    static func run<T: Sendable>(
        seconds: Double, on clock: any Clock<Duration>, _ body: @escaping @Sendable (IdleWatch) async throws -> T
    ) async throws -> T {
        let watch = IdleWatch(clock: clock)
        let limit = Duration.seconds(seconds)
        return try await TimeLimit.race(
            { try await body(watch) },
            against: {
                while watch.silence < limit { try await clock.sleep(for: limit / 4) }
            },
            expired: PlaybackError(.connectionTimeout, underlying: "no bytes for \(seconds) s"))
    }
}
