import Foundation
import Media
import PlayerCore
import Streaming
import TestProcesses
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `HTTPByteSource` against a real Icecast 2 (fed by ffmpeg) and tiny raw TCP servers.
///
/// Blocking work (reads, starting Icecast) runs on dedicated threads (`onOwnThread`), never on the
/// cooperative pool, which the source's own body task needs (the CI machine has 2 cores).
@Suite("HTTPByteSource", .serialized, .blocking)
struct HTTPByteSourceTests {
    @Test("Bytes flow from Icecast: MP3 frame sync present, ICY metadata removed")
    func bytesFlow() async throws {
        let server = try await onOwnThread { try IcecastServer() }
        defer { server.stop() }
        let source = HTTPByteSource(url: server.streamURL)
        defer { source.close() }
        let bytes = try await onOwnThread { try readUpTo(source, count: 64 * 1024, timeout: 15) }
        #expect(bytes.count >= 64 * 1024)
        #expect(containsFrameSync(bytes), "no MP3 frame sync in \(bytes.count) bytes")
        #expect(!contains(bytes, Array("StreamTitle=".utf8)), "metadata leaked into the audio")
        #expect(source.contentType?.hasPrefix("audio/mpeg") == true, "\(source.contentType ?? "nil")")
        #expect(source.httpStatus == 200)
        #expect(source.bytesReceived >= 64 * 1024)
    }

    @Test("icy-name and icy-genre from the source client arrive as station info")
    func stationInfo() async throws {
        let server = try await onOwnThread { try IcecastServer() }
        defer { server.stop() }
        let source = HTTPByteSource(url: server.streamURL)
        defer { source.close() }
        let ready = try await onOwnThread { try source.waitForResponse(timeout: .seconds(10)) }
        #expect(ready)
        #expect(source.stationInfo.name == IcecastServer.stationName)
        #expect(source.stationInfo.genre == IcecastServer.stationGenre)
    }

    @Test("A title set through the admin interface arrives via onMetadata")
    func metadataArrives() async throws {
        let server = try await onOwnThread { try IcecastServer() }
        defer { server.stop() }
        let titles = Locked<[String]>([])
        let source = HTTPByteSource(url: server.streamURL) { metadata in
            if let title = metadata.title { titles.withLock { $0.append(title) } }
        }
        defer { source.close() }
        _ = try await onOwnThread { try source.waitForResponse(timeout: .seconds(10)) }
        let wanted = "Test Title ünïcode"
        try await onOwnThread { try server.setTitle(wanted) }
        // Keep reading so the body flows; stop once the title arrived.
        let found = try await onOwnThread { () -> Bool in
            let deadline = Date().addingTimeInterval(12)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while Date() < deadline {
                _ = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
                if titles.withLock({ $0.contains(wanted) }) { return true }
            }
            return false
        }
        #expect(found, "titles seen: \(titles.withLock { $0 })")
    }

    @Test("A missing mount is a typed httpNotFound")
    func notFound() async throws {
        let server = try await onOwnThread { try IcecastServer() }
        defer { server.stop() }
        let source = HTTPByteSource(url: URL(string: "\(server.baseURL)/missing.mp3")!)
        defer { source.close() }
        let error = await #expect(throws: PlaybackError.self) {
            try await onOwnThread { try readUpTo(source, count: 1, timeout: 10) }
        }
        #expect(error?.code == .httpNotFound)
        #expect(error?.httpStatus == 404)
    }

    @Test("Killing Icecast mid-stream makes read throw connectionLost within seconds")
    func dropWhileReading() async throws {
        let server = try await onOwnThread { try IcecastServer() }
        defer { server.stop() }
        let source = HTTPByteSource(url: server.streamURL)
        defer { source.close() }
        _ = try await onOwnThread { try readUpTo(source, count: 16 * 1024, timeout: 10) }
        server.kill()
        let error = await #expect(throws: PlaybackError.self) {
            // Far more than buffered: only the error can end this.
            try await onOwnThread { try readUpTo(source, count: 100 << 20, timeout: 20) }
        }
        #expect(error.map { [.connectionLost, .connectionFailed].contains($0.code) } == true, "\(String(describing: error))")
    }

    @Test("Nothing listening: connectionFailed, quickly")
    func refused() async throws {
        let refusing = try TestHTTPServer.refusingPort()
        defer { refusing.release() }
        let source = HTTPByteSource(url: URL(string: "http://127.0.0.1:\(refusing.port)/live.mp3")!)
        defer { source.close() }
        let error = await #expect(throws: PlaybackError.self) {
            try await onOwnThread { try readUpTo(source, count: 1, timeout: 10) }
        }
        #expect(error?.code == .connectionFailed, "\(String(describing: error))")
    }

    @Test("A text/html answer is wrongContentType")
    func htmlIsWrongContentType() async throws {
        let body = "<html><body>Not a stream</body></html>"
        let server = try RawTCPServer(
            response: Array("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8))
        defer { server.stop() }
        let source = HTTPByteSource(url: URL(string: "http://127.0.0.1:\(server.port)/")!)
        defer { source.close() }
        let error = await #expect(throws: PlaybackError.self) {
            try await onOwnThread { try readUpTo(source, count: 1, timeout: 10) }
        }
        #expect(error?.code == .wrongContentType, "\(String(describing: error))")
    }

    @Test("503 with Retry-After: httpRetryable carrying the seconds")
    func retryAfter() async throws {
        let server = try RawTCPServer(
            response: Array("HTTP/1.1 503 Service Unavailable\r\nRetry-After: 7\r\nContent-Length: 0\r\n\r\n".utf8))
        defer { server.stop() }
        let source = HTTPByteSource(url: URL(string: "http://127.0.0.1:\(server.port)/")!)
        defer { source.close() }
        let error = await #expect(throws: PlaybackError.self) {
            try await onOwnThread { try readUpTo(source, count: 1, timeout: 10) }
        }
        #expect(error?.code == .httpRetryable)
        #expect(error?.retryAfter == .seconds(7))
    }

    @Test("An HTTP-date Retry-After becomes seconds from the injected wall clock's now")
    func retryAfterDate() async throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        // A whole second, as an HTTP-date has it: the wait is then exactly 30 s from it.
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let date = formatter.string(from: now.addingTimeInterval(30))
        let server = try RawTCPServer(
            response: Array("HTTP/1.1 429 Too Many Requests\r\nRetry-After: \(date)\r\nContent-Length: 0\r\n\r\n".utf8))
        defer { server.stop() }
        let source = HTTPByteSource(url: URL(string: "http://127.0.0.1:\(server.port)/")!, now: { now })
        defer { source.close() }
        let error = await #expect(throws: PlaybackError.self) {
            try await onOwnThread { try readUpTo(source, count: 1, timeout: 10) }
        }
        #expect(error?.code == .httpRetryable)
        guard case .seconds(let seconds)? = error?.retryAfter else {
            Issue.record("Retry-After not in seconds: \(String(describing: error?.retryAfter))")
            return
        }
        #expect(seconds == 30, "\(seconds)")
    }

    @Test("A SHOUTcast v1 server ('ICY 200 OK') plays: headers, titles and audio through the same demuxer")
    func icyStatusLine() async throws {
        let audio = (0..<12_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let block = [UInt8(2)] + Array("StreamTitle='A - B';".utf8) + [UInt8](repeating: 0, count: 12)
        let body = Array(audio[0..<8192]) + block + Array(audio[8192...])
        let server = try RawTCPServer(
            response: Array("ICY 200 OK\r\nicy-name: Legacy\r\nicy-metaint: 8192\r\nContent-Type: audio/mpeg\r\n\r\n".utf8) + body)
        defer { server.stop() }
        let titles = Locked<[String]>([])
        let source = HTTPByteSource(
            url: URL(string: "http://127.0.0.1:\(server.port)/;stream.mp3")!, endOfBodyIsEnd: true,
            onMetadata: { metadata in titles.withLock { $0.append(metadata.title ?? "") } })
        defer { source.close() }
        let bytes = try await onOwnThread { try readUpTo(source, count: 1 << 20, timeout: 10) }
        #expect(bytes == audio)
        #expect(titles.withLock { $0 } == ["A - B"])
        #expect(source.stationInfo.name == "Legacy")
        #expect(source.httpStatus == 200)
        // AsyncHTTPClient's parser refused the status line once; the legacy path asked again.
        #expect(server.requestHeads.count == 2)
        let legacyHead = try #require(server.requestHeads.last)
        #expect(legacyHead.hasPrefix("GET /;stream.mp3 HTTP/1.0\r\n"))
        #expect(legacyHead.contains("Icy-MetaData: 1\r\n"))
        #expect(legacyHead.contains("Host: 127.0.0.1:\(server.port)\r\n"))
        #expect(legacyHead.contains("User-Agent: \(SharedHTTPClient.userAgent)\r\n"))

        // The server is remembered: the next request goes to the legacy path directly.
        let again = HTTPByteSource(url: URL(string: "http://127.0.0.1:\(server.port)/;stream.mp3")!, endOfBodyIsEnd: true)
        defer { again.close() }
        #expect(try await onOwnThread { try readUpTo(again, count: 1 << 20, timeout: 10) } == audio)
        #expect(server.requestHeads.count == 3)
    }

    /// One socket read may bring several body parts while the buffer is full: they wait their
    /// turn, none is lost or put before another.
    @Test("A SHOUTcast v1 answer far larger than the buffer reaches the reader whole and in order")
    func icyStatusLineBodyLargerThanTheBuffer() async throws {
        let audio = (0..<600_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 11) }
        let server = try RawTCPServer(response: Array("ICY 200 OK\r\nicy-name: Legacy\r\nContent-Type: audio/mpeg\r\n\r\n".utf8) + audio)
        defer { server.stop() }
        let source = HTTPByteSource(url: URL(string: "http://127.0.0.1:\(server.port)/")!, capacity: 16 * 1024, endOfBodyIsEnd: true)
        defer { source.close() }
        let bytes = try await onOwnThread { try readUpTo(source, count: 1 << 20, timeout: 20) }
        #expect(bytes.count == audio.count)
        let same = bytes == audio
        #expect(same, "the bytes read differ from the answer's")
    }

    @Test("A SHOUTcast v1 live stream that ends has dropped, and a refusal is still typed")
    func icyStatusLineFaults() async throws {
        let live = try RawTCPServer(response: Array("ICY 200 OK\r\nicy-name: Legacy\r\n\r\n".utf8) + [UInt8](repeating: 0xFF, count: 4096))
        defer { live.stop() }
        let source = HTTPByteSource(url: URL(string: "http://127.0.0.1:\(live.port)/")!)
        defer { source.close() }
        let dropped = await #expect(throws: PlaybackError.self) {
            try await onOwnThread { try readUpTo(source, count: 1 << 20, timeout: 10) }
        }
        #expect(dropped?.code == .connectionLost, "\(String(describing: dropped))")

        let refused = try RawTCPServer(response: Array("ICY 404 Resource Not Found\r\n\r\n".utf8))
        defer { refused.stop() }
        let missing = HTTPByteSource(url: URL(string: "http://127.0.0.1:\(refused.port)/")!)
        defer { missing.close() }
        let error = await #expect(throws: PlaybackError.self) {
            try await onOwnThread { try readUpTo(missing, count: 1, timeout: 10) }
        }
        #expect(error?.code == .httpNotFound, "\(String(describing: error))")

        let garbage = try RawTCPServer(response: Array("SOMETHING ELSE\r\n\r\n".utf8))
        defer { garbage.stop() }
        let unreadable = HTTPByteSource(url: URL(string: "http://127.0.0.1:\(garbage.port)/")!)
        defer { unreadable.close() }
        let malformed = await #expect(throws: PlaybackError.self) {
            try await onOwnThread { try readUpTo(unreadable, count: 1, timeout: 10) }
        }
        #expect(malformed?.code == .malformedData, "\(String(describing: malformed))")
    }

    /// A reader well ahead lets the connection pause between reads; each pause ends by itself, so a
    /// reader that stops reading (a paused listener) does not stop the connection.
    @Test("A live stream whose reader is well ahead still takes in everything sent, with nothing read")
    func pausedReadsEndWithoutAReader() async throws {
        let audio = OverlapSpliceTests.stream(0..<50_000)
        let head = Array("HTTP/1.0 200 OK\r\nContent-Type: audio/mpeg\r\n\r\n".utf8)
        let server = try RawTCPServer(response: head + audio, keepOpen: true)
        defer { server.stop() }
        let link = ConnectionLink()
        link.onDecodedAhead { 10 }
        let source = HTTPByteSource(url: URL(string: "http://127.0.0.1:\(server.port)/live")!, connection: link)
        defer { source.close() }
        source.start()
        #expect(await eventually(timeout: 15) { source.bytesReceived == audio.count }, "received \(source.bytesReceived)")
        #expect(source.bufferedBytes == audio.count)
        let all = try await onOwnThread { try readUpTo(source, count: audio.count, timeout: 10) }
        #expect(all == audio)
    }

    @Test("A dropped live stream asked for again joins without a repeat: the reader never sees the seam")
    func reopenJoinsWithoutRepeats() async throws {
        let audio = OverlapSpliceTests.stream(0..<40_000)
        let head = Array("HTTP/1.0 200 OK\r\nContent-Type: audio/mpeg\r\n\r\n".utf8)
        let server = try RawTCPServer { connection in
            switch connection {
            // 80,000 bytes, then the server goes away.
            case 1: return (head + Array(audio[0..<80_000]), false)
            // It comes back with a burst that repeats the last 30,000 bytes, then goes on.
            default: return (head + Array(audio[50_000...]), true)
            }
        }
        defer { server.stop() }
        let (source, link, drops) = startedLiveSource(port: server.port)
        defer { source.close() }
        #expect(await eventually(timeout: 10) { drops.withLock { $0.count } == 1 })
        #expect(drops.withLock { $0.first?.code } == .connectionLost)
        // Asked again while the first connection's audio is still unread (it plays meanwhile).
        link.reopen()
        let all = try await onOwnThread { try readUpTo(source, count: audio.count, timeout: 10) }
        #expect(all.count == audio.count)
        #expect(all == audio)
        #expect(server.requestHeads.count == 2)
    }

    @Test("A reopen that fails is told as another drop")
    func failedReopenIsADrop() async throws {
        let head = Array("HTTP/1.0 200 OK\r\nContent-Type: audio/mpeg\r\n\r\n".utf8)
        let server = try RawTCPServer { connection in
            connection == 1 ? (head + [UInt8](repeating: 7, count: 1_000), false) : (Array("HTTP/1.0 503 Busy\r\n\r\n".utf8), false)
        }
        defer { server.stop() }
        let (source, link, drops) = startedLiveSource(port: server.port)
        defer { source.close() }
        #expect(await eventually(timeout: 10) { drops.withLock { $0.count } == 1 })
        link.reopen()
        #expect(await eventually(timeout: 10) { drops.withLock { $0.count } == 2 })
        #expect(drops.withLock { $0.last?.code } == .httpRetryable)
        link.reopen()
        #expect(await eventually(timeout: 10) { drops.withLock { $0.count } == 3 })
        // What the first connection brought is still there to play.
        #expect(try await onOwnThread { try readUpTo(source, count: 1_000, timeout: 10) } == [UInt8](repeating: 7, count: 1_000))
    }

    @Test("With a player that answers drops, a reader waits across failed reopens for the next audio, and an abandon ends the wait")
    func aReaderWaitsForThePlayersAnswer() async throws {
        let head = Array("HTTP/1.0 200 OK\r\nContent-Type: audio/mpeg\r\n\r\n".utf8)
        let server = try RawTCPServer { connection in
            switch connection {
            case 1: return (head + [UInt8](repeating: 1, count: 1_000), false)
            case 2: return (Array("HTTP/1.0 503 Busy\r\n\r\n".utf8), false)
            case 3: return (head + [UInt8](repeating: 3, count: 1_000), false)
            default: return (Array("HTTP/1.0 503 Busy\r\n\r\n".utf8), false)
            }
        }
        defer { server.stop() }
        let (source, link, drops) = startedLiveSource(port: server.port, answersDrops: true)
        defer { source.close() }
        #expect(await eventually(timeout: 10) { drops.withLock { $0.count } == 1 })
        // Reading past the first connection's audio waits (no error) while the player answers.
        async let reader = onOwnThread { try readUpTo(source, count: 2_000, timeout: 20) }
        link.reopen()
        #expect(await eventually(timeout: 10) { drops.withLock { $0.count } == 2 }, "the 503 is another drop")
        link.reopen()
        let read = try await reader
        #expect(read == [UInt8](repeating: 1, count: 1_000) + [UInt8](repeating: 3, count: 1_000))
        // The third connection ended too; this time the player gives up: the reader fails.
        #expect(await eventually(timeout: 10) { drops.withLock { $0.count } == 3 })
        link.abandon(cause: PlaybackError(.connectionLost))
        #expect(throws: PlaybackError.self) { _ = try readUpTo(source, count: 1, timeout: 10) }
    }

    @Test("The end of a finite body is the end of the stream with endOfBodyIsEnd")
    func finiteBody() async throws {
        let payload = [UInt8](repeating: 0xAB, count: 10_000)
        let server = try RawTCPServer(
            response: Array("HTTP/1.1 200 OK\r\nContent-Type: audio/mpeg\r\nContent-Length: \(payload.count)\r\n\r\n".utf8) + payload)
        defer { server.stop() }
        let finite = HTTPByteSource(url: URL(string: "http://127.0.0.1:\(server.port)/")!, endOfBodyIsEnd: true)
        defer { finite.close() }
        let bytes = try await onOwnThread { try readUpTo(finite, count: 1 << 20, timeout: 10) }
        #expect(bytes == payload)

        let live = HTTPByteSource(url: URL(string: "http://127.0.0.1:\(server.port)/")!)
        defer { live.close() }
        let error = await #expect(throws: PlaybackError.self) {
            try await onOwnThread { try readUpTo(live, count: 1 << 20, timeout: 10) }
        }
        #expect(error?.code == .connectionLost)
    }

    @Test("close() wakes a blocked read")
    func closeWakesReader() async throws {
        let server = try RawTCPServer(response: Array("HTTP/1.1 200 OK\r\nContent-Type: audio/mpeg\r\n\r\n".utf8), keepOpen: true)
        defer { server.stop() }
        let facts = ConnectionFactLog()
        let source = HTTPByteSource(url: URL(string: "http://127.0.0.1:\(server.port)/")!, connection: facts.link)
        _ = try await onOwnThread { try source.waitForResponse(timeout: .seconds(10)) }
        let reader = Task { try await onOwnThread { try readUpTo(source, count: 1, timeout: 10) } }
        // Closed once the reader waits for bytes (it says so: `dry`).
        #expect(await onOwnThread { facts.wait { $0.last == .dry } })
        source.close()
        let error = await #expect(throws: PlaybackError.self) { try await reader.value }
        #expect(error?.code == .cancelled)
    }

    @Test("FFmpegDecoder decodes at least 1 s of audio from Icecast through the source")
    func decodesThroughEngine() async throws {
        let server = try await onOwnThread { try IcecastServer() }
        defer { server.stop() }
        let source = HTTPByteSource(url: server.streamURL)
        defer { source.close() }
        let frames = try await onOwnThread { () -> Int in
            let decoder = try FFmpegDecoder(source: source, formatHint: "mp3")
            var total = 0
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 4096 * AudioFormat.channelCount)
            defer { buffer.deallocate() }
            let deadline = Date().addingTimeInterval(15)
            while total < AudioFormat.sampleRate, Date() < deadline {
                let got = try decoder.read(into: buffer, maxFrames: 4096)
                if got == 0 { break }
                total += got
            }
            return total
        }
        #expect(frames >= AudioFormat.sampleRate)
    }
}

// MARK: - Helpers

/// A live source on the loopback `port` (path /live), started, with the drops its link reported.
private func startedLiveSource(port: Int, answersDrops: Bool = false) -> (HTTPByteSource, ConnectionLink, Locked<[PlaybackError]>) {
    let drops = Locked<[PlaybackError]>([])
    let link = ConnectionLink(answersDrops: answersDrops) { fact in
        if case .dropped(let cause) = fact { drops.withLock { $0.append(cause) } }
    }
    let source = HTTPByteSource(url: URL(string: "http://127.0.0.1:\(port)/live")!, connection: link)
    source.start()
    return (source, link, drops)
}

/// True when `bytes` holds an MPEG audio frame header (11 sync bits, layer III, valid bitrate index).
private func containsFrameSync(_ bytes: [UInt8]) -> Bool {
    guard bytes.count > 2 else { return false }
    for index in 0..<(bytes.count - 2) where bytes[index] == 0xFF {
        let next = bytes[index + 1]
        if [0xFB, 0xFA, 0xF3, 0xF2, 0xE3, 0xE2].contains(next), bytes[index + 2] >> 4 != 0x0F { return true }
    }
    return false
}

private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard haystack.count >= needle.count else { return false }
    for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
        if Array(haystack[start..<(start + needle.count)]) == needle { return true }
    }
    return false
}

/// A value behind a lock, shareable with escaping closures.
private final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
