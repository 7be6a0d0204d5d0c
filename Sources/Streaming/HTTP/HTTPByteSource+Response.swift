import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PlayerCore

/// The answer to an `HTTPByteSource`'s request, from either client: the head checked, the body
/// demuxed into the stream's ring, the end and the failures told as the connection's facts.
extension HTTPByteSource {
    /// Receives the response on the HTTP client's event loop, never the Swift concurrency pool: a
    /// busy pool must not delay the bytes (or fake a timeout). One request, callbacks in order.
    final class BodyDelegate: HTTPClientResponseDelegate, Sendable {
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
    /// `@unchecked Sendable`: its one `var`, `demuxer`, needs no lock: only the callbacks touch it,
    /// in order on one event loop; `source` (weak) is set once, in `init`.
    final class Receiver: HTTPResponseSink, @unchecked Sendable {
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

    /// Whether `attempt` is the request the source waits on now (its connection and its client).
    func isCurrent(_ attempt: Attempt, in state: ByteRingStream.State) -> Bool {
        state.isCurrent(attempt.number) && path == attempt.path
    }

    /// Takes one chunk's audio into the ring (what does not fit waits there for room) and hands
    /// its titles to `onMetadata`. The returned future completes when the client may read on: a
    /// live stream's client pauses first while its reader is well ahead (`readPause`).
    func deliver(_ output: IcyOutput, received: Int, attempt: Attempt, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        transfers?.received(received, as: .stream)
        let promise = eventLoop.makePromise(of: Void.self)
        // Only a reader well ahead lets the connection pause: until then, and after a gap that
        // emptied its queue, whatever the server sent at once is read at once.
        let mayPause = !endOfBodyIsEnd && stream.connection.decodedAhead() >= Self.aheadToPause
        let outcome = stream.locked { state -> (ByteRingStream.WriteOutcome, pause: Int?) in
            guard isCurrent(attempt, in: state) else { return (.refused, nil) }
            _bytesReceived += received
            // A live stream's audio goes through the splice, which drops what a reconnect repeats.
            let audio = endOfBodyIsEnd ? output.audio : splice.feed(output.audio)
            let outcome = state.write(audio, of: attempt.number) { promise.completeWith($0) }
            guard outcome == .taken, mayPause else { return (outcome, nil) }
            return (outcome, state.pace { promise.completeWith($0) })
        }
        switch outcome {
        case (.refused, _):
            promise.fail(CancellationError())
            return promise.futureResult
        case (.taken, let pause?):
            // The event loop's own timer: it wakes no thread but the one that reads next, and it
            // decides nothing a listener sees (the reader ends the pause as soon as it needs bytes).
            eventLoop.scheduleTask(in: Self.readPause) { [weak self] in
                self?.stream.locked { $0.endPause(pause) }
            }
        case (.taken, nil):
            promise.succeed(())
        case (.held, _):
            break
        }
        if let onMetadata { output.metadata.forEach(onMetadata) }
        return promise.futureResult
    }

    func bodyEnded(attempt: Attempt) {
        let ended: (log: HTTPRequestLog, bytes: Int)? = stream.locked { state in
            guard isCurrent(attempt, in: state) else { return nil }
            if endOfBodyIsEnd {
                state.end(attempt.number)
            } else {
                // Opening bytes held for the join are the last of this connection: they count.
                let held = splice.flush()
                if !held.isEmpty { _ = state.write(held, of: attempt.number) { _ in } }
                // A live stream never ends: the end of its body is a dropped connection.
                state.end(attempt.number, droppedBy: PlaybackError(.connectionLost, underlying: "the live stream's body ended"))
            }
            return (requestLog, _bytesReceived)
        }
        if let ended { ended.log.ended(bytes: ended.bytes) }
    }

    /// Checks the status and content type, reads the headers; returns the demuxer to use.
    func handleHead(status: Int, headers responseHeaders: HTTPHeaders, attempt: Attempt) throws(PlaybackError) -> IcyDemuxer {
        guard let log = stream.peek({ state in isCurrent(attempt, in: state) ? requestLog : nil }) else {
            throw PlaybackError(.cancelled, underlying: "a request this source left")
        }
        log.responded(status: status)
        health.answered(status: status)
        let info = HTTPResponseInfo(status: status) { responseHeaders.first(name: $0) }
        stream.locked { _ in _responseInfo = info }
        guard (200...299).contains(status) else {
            throw HTTPRefusal.error(status: status, retryAfter: responseHeaders.first(name: "Retry-After"), now: now())
        }
        let contentType = responseHeaders.first(name: "Content-Type")
        var headers: [String: String] = [:]
        for header in responseHeaders where headers[header.name] == nil { headers[header.name] = header.value }
        stream.locked { _ in
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
        let demuxer = try IcyDemuxer(metaIntervalHeader: request.asksForIcyMetadata ? responseHeaders.first(name: "icy-metaint") : nil)
        stream.locked { state in state.answered(attempt.number) }
        return demuxer
    }

    /// Records the first error (errors are sticky; a closed source stays closed) and wakes readers.
    /// A live stream that fails after its head has dropped, which the player is told. A report from
    /// a request the source has left is ignored; an `ICY 200 OK` refused by AsyncHTTPClient sends
    /// the request down the legacy path.
    func fail(_ error: any Error, via reporter: Attempt) {
        enum Verdict { case stale, failed, legacy }
        let verdict = stream.locked { state -> Verdict in
            guard state.generation == reporter.number, path == reporter.path else { return .stale }
            guard reporter.path == .client, Self.isIcyStatusLine(error), state.isOpen, !state.hasAnswered || state.reopening else {
                return .failed
            }
            LegacyIcyServers.remember(url)
            requestLog.legacyServer(known: false)
            task = nil
            return .legacy
        }
        switch verdict {
        case .stale: return
        case .legacy: return sendLegacy(reporter.number)
        case .failed: break
        }
        let mapped = HTTPErrorMapping.map(error)
        let (log, bytes, wasReopening) = stream.peek { state in (requestLog, _bytesReceived, state.reopening) }
        log.ended(bytes: bytes, error: mapped)
        // A reopen in the background that finds nobody listening is not held against the host:
        // those attempts are few, quick and bounded by the buffer, and an open breaker would keep
        // the visible reconnect from the server for half a minute after it is back.
        if wasReopening { health.abandoned() } else { health.failed(mapped) }
        stream.locked { state in
            // After the head a live stream's failure is a drop, and a reopen that fails before an
            // answer is a drop again: the player decides what next.
            var answered = false
            if case .answered = state.phase { answered = true }
            state.fail(mapped, of: reporter.number, asDrop: (answered && !endOfBodyIsEnd) || state.reopening)
        }
    }

    /// What AsyncHTTPClient's parser reports for a status line that is not HTTP's (`ICY 200 OK`).
    static func isIcyStatusLine(_ error: any Error) -> Bool {
        (error as? HTTPParserError) == .invalidConstant
    }
}
