import Foundation
import Media
import PlayerCore
import Streaming
import TestProcesses
import Testing

/// `ResumableHTTPSource` against a real HTTP server scripted to cut, stall, ignore `Range` or
/// change the file between requests. Every test checks the bytes against the file itself and the
/// `Range` each request carried. The source never waits: every wait is the player's reconnect policy.
///
/// Reads run on dedicated threads (`onOwnThread`): `read` blocks, and the cooperative pool is small.
@Suite("ResumableHTTPSource", .serialized, .blocking)
struct ResumableHTTPSourceTests {
    /// Counts requests so a route can answer differently each time.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func next() -> Int { lock.withLock { count += 1; return count } }
    }

    static let file = EpisodeFixtures.counting(400_000)

    static func source(_ url: URL, connection: ConnectionLink = ConnectionLink()) -> ResumableHTTPSource {
        var configuration = ResumableHTTPSource.Configuration()
        configuration.capacity = 1 << 20  // no backpressure: a cut's bytes all arrive before it
        return ResumableHTTPSource(url: url, configuration: configuration, connection: connection)
    }

    static func ranges(_ server: TestHTTPServer) -> [String?] { server.requests.map { $0.header("Range") } }

    @Test("A cut in the middle resumes at exactly the byte delivered, and the bytes equal the file")
    func resumesAfterACut() async throws {
        let counter = Counter()
        let server = try TestHTTPServer { request in
            .file(Self.file, for: request, ending: counter.next() == 1 ? .cut(after: 150_001) : .complete)
        }
        defer { server.stop() }
        let source = Self.source(server.url("/episode.mp3"))
        defer { source.close() }
        let bytes = try await onOwnThread { try readAll(source) }
        #expect(bytes == [UInt8](Self.file))
        #expect(Self.ranges(server) == [nil, "bytes=150001-"])
        #expect(server.requests.allSatisfy { $0.header("Icy-MetaData") == nil })
        #expect(source.size == Int64(Self.file.count))
        #expect(source.bytesDiscarded == 0)
    }

    @Test("Two cuts: each resume asks for the byte where the previous answer stopped")
    func resumesAfterTwoCuts() async throws {
        let counter = Counter()
        let server = try TestHTTPServer { request in
            switch counter.next() {
            case 1: .file(Self.file, for: request, ending: .cut(after: 70_000))
            case 2: .file(Self.file, for: request, ending: .cut(after: 123_457))
            default: .file(Self.file, for: request)
            }
        }
        defer { server.stop() }
        let source = Self.source(server.url("/episode.mp3"))
        defer { source.close() }
        let bytes = try await onOwnThread { try readAll(source) }
        #expect(bytes == [UInt8](Self.file))
        #expect(Self.ranges(server) == [nil, "bytes=70000-", "bytes=193457-"])
        // Bytes flowed between the cuts: each drop was a first attempt, made at once.
    }

    @Test("A stall (socket open, no bytes): reported dry; given up by the player, it resumes at the byte delivered")
    func resumesAfterAStall() async throws {
        let counter = Counter()
        let server = try TestHTTPServer { request in
            .file(Self.file, for: request, ending: counter.next() == 1 ? .stall(after: 99_999) : .complete)
        }
        defer { server.stop() }
        let facts = ConnectionFactLog()
        let source = Self.source(server.url("/episode.mp3"), connection: facts.link)
        defer { source.close() }
        let reader = Task { try await onOwnThread { try readAll(source) } }
        // The source never gives up a silent connection by itself: it says it is dry and waits.
        #expect(await onOwnThread { facts.wait { source.position == 99_999 && $0.last == .dry } })
        #expect(Self.ranges(server) == [nil])
        facts.link.abandon(cause: PlaybackError(.stalled))
        let bytes = try await reader.value
        #expect(bytes == [UInt8](Self.file))
        #expect(Self.ranges(server) == [nil, "bytes=99999-"])
        #expect(!facts.all.contains { if case .dropped = $0 { true } else { false } }, "an episode's source resumes: no drop for the player")
    }

    @Test("Given up twice in one dry spell: the second time is the player's to handle (no third request)")
    func aSecondStallInOneSpellIsThrown() async throws {
        let counter = Counter()
        let server = try TestHTTPServer { request in
            .file(Self.file, for: request, ending: .stall(after: counter.next() == 1 ? 1_000 : 0))
        }
        defer { server.stop() }
        let facts = ConnectionFactLog()
        let source = Self.source(server.url("/episode.mp3"), connection: facts.link)
        defer { source.close() }
        let reader = Task { try await onOwnThread { try readAll(source) } }
        #expect(await onOwnThread { facts.wait { source.position == 1_000 && $0.last == .dry } })
        let before = facts.all.count
        facts.link.abandon(cause: PlaybackError(.stalled))
        // The immediate second request answers with its head, then sends nothing.
        #expect(await onOwnThread { facts.wait { $0.count >= before + 2 && $0.last == .dry } })
        #expect(source.position == 1_000)
        #expect(server.requests.count == 2)
        facts.link.abandon(cause: PlaybackError(.stalled, underlying: "second"))
        let error = await #expect(throws: PlaybackError.self) { try await reader.value }
        #expect(error?.code == .stalled)
        #expect(error?.underlying == "second")
        #expect(server.requests.count == 2)
    }

    @Test("A server without Range support: the new whole body is read up to the offset and dropped")
    func discardsWhenRangeIsIgnored() async throws {
        let counter = Counter()
        let server = try TestHTTPServer { request in
            .file(Self.file, for: request, ranges: false, ending: counter.next() == 1 ? .cut(after: 210_000) : .complete)
        }
        defer { server.stop() }
        let source = Self.source(server.url("/episode.mp3"))
        defer { source.close() }
        let bytes = try await onOwnThread { try readAll(source) }
        #expect(bytes == [UInt8](Self.file))
        #expect(Self.ranges(server) == [nil, "bytes=210000-"])
        #expect(source.bytesDiscarded == 210_000)
    }

    @Test("A chunked body cut right at its end: the resume gets 416 and the source ends cleanly")
    func aRangePastTheEndIsTheEnd() async throws {
        let counter = Counter()
        let server = try TestHTTPServer { request in
            .file(Self.file, for: request, contentLength: false, ending: counter.next() == 1 ? .cut(after: Self.file.count) : .complete)
        }
        defer { server.stop() }
        let source = Self.source(server.url("/episode.mp3"))
        defer { source.close() }
        let bytes = try await onOwnThread { try readAll(source) }
        #expect(bytes == [UInt8](Self.file))
        #expect(Self.ranges(server) == [nil, "bytes=\(Self.file.count)-"])
        #expect(source.size == Int64(Self.file.count))  // learnt from the 416's Content-Range
    }

    @Test(
        "A file that changed between requests is a typed sourceChanged, never spliced audio",
        arguments: [("size", false), ("etag", true)])
    func aChangedFileIsATypedError(what: String, sameSize: Bool) async throws {
        let counter = Counter()
        let changed = sameSize ? Data(Self.file.reversed()) : EpisodeFixtures.counting(Self.file.count + 1_000)
        let server = try TestHTTPServer { request in
            counter.next() == 1
                ? .file(Self.file, for: request, etag: "\"v1\"", ending: .cut(after: 50_000))
                : .file(changed, for: request, etag: "\"v2\"")
        }
        defer { server.stop() }
        let source = Self.source(server.url("/episode.mp3"))
        defer { source.close() }
        let got = Collected([])
        let error = await #expect(throws: PlaybackError.self, "\(what)") {
            try await onOwnThread { try readAll(source, into: got) }
        }
        #expect(error?.code == .sourceChanged)
        #expect(error?.isRecoverable == true && error?.isRetryable == false)
        #expect(got.withLock { $0 } == [UInt8](Self.file.prefix(50_000)))
        // Sticky: asking again does not splice either.
        let again = await #expect(throws: PlaybackError.self) { try await onOwnThread { try readAll(source) } }
        #expect(again?.code == .sourceChanged)
        #expect(server.requests.count == 2)
    }

    @Test("Seek then read: the right bytes, one request per real move, none for a seek in place")
    func seekThenRead() async throws {
        let server = try TestHTTPServer { request in .file(Self.file, for: request) }
        defer { server.stop() }
        let source = Self.source(server.url("/episode.mp3"))
        defer { source.close() }
        let head = try await onOwnThread { try readExactly(source, 1_000) }
        #expect(head == [UInt8](Self.file.prefix(1_000)))
        try source.seek(to: 1_000)  // where it already is
        #expect(server.requests.count == 1)
        try source.seek(to: 300_000)
        let middle = try await onOwnThread { try readExactly(source, 5_000) }
        #expect(middle == [UInt8](Self.file[300_000..<305_000]))
        #expect(source.position == 305_000)
        try source.seek(to: 10)
        let early = try await onOwnThread { try readExactly(source, 100) }
        #expect(early == [UInt8](Self.file[10..<110]))
        #expect(Self.ranges(server) == [nil, "bytes=300000-", "bytes=10-"])
        // At the known end a read returns 0 without asking.
        try source.seek(to: Int64(Self.file.count))
        let tail = try await onOwnThread { try readAll(source) }
        #expect(tail.isEmpty)
        #expect(source.requestCount == 3 && server.requests.count == 3)
    }

    @Test("Drops with no recovery: one request at once, then the typed cause, Retry-After kept, for the player's reconnect policy")
    func oneImmediateRequestThenThePlayerDecides() async throws {
        let counter = Counter()
        let server = try TestHTTPServer { request in
            counter.next() == 1
                ? .file(Self.file, for: request, ending: .cut(after: 60_000))
                : .complete(status: 503, contentType: "text/plain", body: Data("busy".utf8), headers: [("Retry-After", "7")])
        }
        defer { server.stop() }
        let source = Self.source(server.url("/episode.mp3"))
        defer { source.close() }
        let error = await #expect(throws: PlaybackError.self) { try await onOwnThread { try readAll(source) } }
        // The source never waits: every wait (backoff, Retry-After, offline) is the player's.
        #expect(error?.code == .httpRetryable)
        #expect(error?.retryAfter == .seconds(7))
        #expect(server.requests.count == 2)
        #expect(Self.ranges(server).dropFirst().allSatisfy { $0 == "bytes=60000-" })
        #expect(source.position == 60_000)
    }

    @Test("A missing episode fails open() at once with its typed error, without retrying")
    func openIsOneAttempt() async throws {
        let server = try TestHTTPServer { _ in .complete(status: 404, contentType: "text/plain", body: Data("no".utf8)) }
        defer { server.stop() }
        let source = Self.source(server.url("/gone.mp3"))
        defer { source.close() }
        let error = await #expect(throws: PlaybackError.self) { try await onOwnThread { try source.open() } }
        #expect(error?.code == .httpNotFound)
        #expect(server.requests.count == 1)
    }

    @Test("close() wakes a read blocked on a silent server")
    func closeWakesReader() async throws {
        let server = try TestHTTPServer { request in .file(Self.file, for: request, ending: .stall(after: 0)) }
        defer { server.stop() }
        let facts = ConnectionFactLog()
        let source = Self.source(server.url("/episode.mp3"), connection: facts.link)
        try await onOwnThread { try source.open() }
        let reader = Task { try await onOwnThread { try readAll(source) } }
        // Closed once the reader waits for bytes (it says so: `dry`).
        #expect(await onOwnThread { facts.wait { $0.last == .dry } })
        source.close()
        let error = await #expect(throws: PlaybackError.self) { try await reader.value }
        #expect(error?.code == .cancelled)
    }

    // MARK: - Through FFmpeg

    @Test("FFmpeg decodes an episode through one request: probing costs no seek to the end")
    func decodingCostsOneRequest() async throws {
        let mp3 = try EpisodeFixtures.mp3()
        let server = try TestHTTPServer { request in .file(mp3, for: request) }
        defer { server.stop() }
        let source = Self.source(server.url("/sweep.mp3"))
        defer { source.close() }
        let (frames, seekable, duration) = try await onOwnThread { () -> (Int, Bool, Double?) in
            let decoder = try FFmpegDecoder(source: source, formatHint: "audio/mpeg")
            return (try decodeAll(decoder), decoder.isSeekable, decoder.duration)
        }
        #expect(seekable)
        #expect(abs((duration ?? 0) - 20) < 0.1, "\(String(describing: duration))")
        let seconds: Double = Double(frames) / Double(AudioFormat.sampleRate)
        #expect(abs(seconds - 20) < 0.1, "\(frames) frames")
        #expect(server.requests.count == 1, "\(Self.ranges(server))")
    }

    @Test("An FFmpeg seek into an episode is one Range request near the estimated byte")
    func decoderSeekIsOneRangeRequest() async throws {
        let mp3 = try EpisodeFixtures.mp3()
        let server = try TestHTTPServer { request in .file(mp3, for: request) }
        defer { server.stop() }
        let source = Self.source(server.url("/sweep.mp3"))
        defer { source.close() }
        let frames = try await onOwnThread { () -> Int in
            let decoder = try FFmpegDecoder(source: source, formatHint: "audio/mpeg")
            try decoder.seek(to: 12)
            return try decodeAll(decoder)
        }
        let seconds: Double = Double(frames) / Double(AudioFormat.sampleRate)
        #expect(abs(seconds - 8) < 0.1, "\(frames) frames after 12 s")
        let starts = server.requests.dropFirst().compactMap { TestHTTPServer.Response.requestedStart($0) }
        #expect(server.requests.count == 2 && starts.count == 1, "\(Self.ranges(server))")
        // 128 kbit/s: 16,000 bytes a second; the demuxer starts a little before the target.
        let expected = 12.0 * 16_000
        #expect(starts.allSatisfy { abs(Double($0) - expected) < 8_000 }, "\(starts)")
    }

    @Test("Content-Range values parse as RFC 9110 writes them, and nothing else does")
    func contentRangeParsing() {
        #expect(ContentRange.parse("bytes 100-199/1000") == ContentRange(start: 100, end: 199, total: 1000))
        #expect(ContentRange.parse("bytes 100-199/*") == ContentRange(start: 100, end: 199, total: nil))
        #expect(ContentRange.parse("bytes */1000") == ContentRange(start: nil, end: nil, total: 1000))
        for bad in ["bytes 200-100/1000", "bytes 0-1000/1000", "items 0-1/2", "bytes */*", "bytes -1-5/9", "bytes 1-2", ""] {
            #expect(ContentRange.parse(bad) == nil, "\(bad)")
        }
        let info = HTTPResponseInfo(status: 206) { ["content-range": "bytes 5-9/10", "accept-ranges": "none", "etag": "\"a\u{1B}[2Jb\""][$0.lowercased()] }
        #expect(info.acceptsRanges && info.totalSize == 10 && info.bodyStart == 5)
        #expect(info.etag == "\"a[2Jb\"")
    }
}

// MARK: - Helpers

/// Reads until the end (a bounded number of bytes, so a bug cannot loop forever); what was read
/// before an error is kept in `into`.
private func readAll(_ source: ResumableHTTPSource, into: Collected? = nil) throws -> [UInt8] {
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 7_000)  // not a divisor of the cut offsets
    while result.count < 8 << 20 {
        let got = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
        if got == 0 { break }
        result.append(contentsOf: buffer[0..<got])
        into?.withLock { $0 = result }
    }
    return result
}

private func readExactly(_ source: ResumableHTTPSource, _ count: Int) throws -> [UInt8] {
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: count)
    while result.count < count {
        let got = try buffer.withUnsafeMutableBytes { try source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<(count - result.count)])) }
        if got == 0 { break }
        result.append(contentsOf: buffer[0..<got])
    }
    return result
}

/// Decodes to the end; returns the frames.
private func decodeAll(_ decoder: FFmpegDecoder) throws -> Int {
    let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 4096 * AudioFormat.channelCount)
    defer { buffer.deallocate() }
    var total = 0
    while true {
        let got = try decoder.read(into: buffer, maxFrames: 4096)
        if got == 0 { return total }
        total += got
    }
}

/// Bytes read so far, shared with the reading thread.
final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var value: [UInt8]

    init(_ value: [UInt8]) { self.value = value }

    func withLock<R>(_ body: (inout [UInt8]) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
