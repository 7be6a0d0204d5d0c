import Foundation
import PlayerCore
import Streaming
import TestProcesses
import Testing

/// The fault-injecting proxy (and the Icecast harness's faults) seen through `HTTPByteSource`:
/// each fault must end as a typed `PlaybackError`, never a crash or a hang.
///
/// Blocking work runs on dedicated threads (`onOwnThread`), never on the cooperative pool, which
/// the source's body task needs (the CI machine has 2 cores).
@Suite("FaultProxy", .serialized, .blocking)
struct FaultProxyTests {
    @Test("Pass: audio bytes from Icecast arrive through the proxy")
    func passThrough() async throws {
        let server = try await onOwnThread { try IcecastServer() }
        defer { server.stop() }
        let proxy = try FaultProxy(upstreamPort: server.port)
        defer { proxy.stop() }
        let source = HTTPByteSource(url: proxy.url(IcecastServer.mount))
        defer { source.close() }
        let bytes = try await onOwnThread { try readUpTo(source, count: 32 * 1024, timeout: 15) }
        #expect(bytes.count >= 32 * 1024)
        #expect(hasFrameSync(bytes))
        #expect(source.httpStatus == 200)
        #expect(proxy.connectionCount == 1)
        // The proxy counts a chunk once its send has returned, which may be after the client has
        // read it: the count catches up with what was read.
        #expect(await eventually(timeout: 5) { proxy.bytesForwardedDownstream >= 32 * 1024 })
    }

    @Test("Cut: a live read throws connectionLost")
    func cut() async throws {
        let server = try await onOwnThread { try IcecastServer() }
        defer { server.stop() }
        let proxy = try FaultProxy(upstreamPort: server.port)
        defer { proxy.stop() }
        let source = HTTPByteSource(url: proxy.url(IcecastServer.mount))
        defer { source.close() }
        _ = try await onOwnThread { try readUpTo(source, count: 16 * 1024, timeout: 15) }
        proxy.mode = .cut
        let error = await #expect(throws: PlaybackError.self) {
            try await onOwnThread { try readUpTo(source, count: 100 << 20, timeout: 20) }
        }
        #expect(error?.code == .connectionLost, "\(String(describing: error))")
        #expect(await eventually(timeout: 5) { proxy.openConnectionCount == 0 })
    }

    @Test("Stall: a silent open socket is reported dry, never failed by the source; given up, it fails with the player's cause")
    func stall() async throws {
        let server = try await onOwnThread { try IcecastServer() }
        defer { server.stop() }
        let proxy = try FaultProxy(upstreamPort: server.port)
        defer { proxy.stop() }
        let facts = ConnectionFactLog()
        let source = HTTPByteSource(url: proxy.url(IcecastServer.mount), connection: facts.link)
        defer { source.close() }
        _ = try await onOwnThread { try readUpTo(source, count: 16 * 1024, timeout: 15) }
        proxy.mode = .stall
        let reader = Task { try await onOwnThread { try readUpTo(source, count: 100 << 20, timeout: 60) } }
        // The reader drains what was buffered and waits: the source says so, and goes on waiting
        // (how long a silence may last is the state machine's decision, not the source's).
        #expect(await onOwnThread { facts.wait { $0.last == .dry } })
        #expect(facts.all.contains(.receiving))
        facts.link.abandon(cause: PlaybackError(.stalled, underlying: "the test's stall decision"))
        let error = await #expect(throws: PlaybackError.self) { try await reader.value }
        #expect(error?.code == .stalled, "\(String(describing: error))")
        #expect(error?.underlying == "the test's stall decision")
        #expect(proxy.connectionCount == 1, "one connection, silent, not a reconnect")
        #expect(!facts.all.contains { if case .dropped = $0 { true } else { false } }, "given up by the player: not reported back as a drop")
    }

    @Test("A cut inside an ICY metadata block is a typed connectionLost")
    func cutInsideMetadataBlock() async throws {
        let server = try await onOwnThread { try IcecastServer() }
        defer { server.stop() }
        try await onOwnThread { try server.setTitle("A title long enough to span a block") }
        let proxy = try FaultProxy(upstreamPort: server.port, mode: .closeInsideMetadataBlock)
        defer { proxy.stop() }
        let source = HTTPByteSource(url: proxy.url(IcecastServer.mount))
        defer { source.close() }
        let error = await #expect(throws: PlaybackError.self) {
            try await onOwnThread { try readUpTo(source, count: 100 << 20, timeout: 20) }
        }
        #expect(error?.code == .connectionLost, "\(String(describing: error))")
        #expect(error?.underlying?.contains("inside an ICY metadata block") == true, "\(String(describing: error))")
        // The cut came after the first interval, its length byte and 3 bytes of the block.
        #expect(proxy.bytesForwardedDownstream > IcecastServer.metaInterval)
    }

    @Test("Corrupt: the head stays intact, every n-th body byte is inverted")
    func corrupt() async throws {
        let body = Data((0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let upstream = try TestHTTPServer { _ in .complete(contentType: "audio/mpeg", body: body, headers: [("icy-name", "Corrupted")]) }
        // Not stopped here: its deinit stops it, and a second `stop()` would hang in NIO.
        defer { withExtendedLifetime(upstream) {} }
        let proxy = try FaultProxy(upstreamPort: upstream.port, mode: .corrupt(everyNthByte: 100))
        defer { proxy.stop() }
        let source = HTTPByteSource(url: proxy.url("/file.mp3"), endOfBodyIsEnd: true)
        defer { source.close() }
        let bytes = try await onOwnThread { try readUpTo(source, count: 1 << 20, timeout: 15) }
        #expect(source.httpStatus == 200)
        #expect(source.contentType == "audio/mpeg")
        #expect(source.stationInfo.name == "Corrupted")
        try #require(bytes.count == body.count)
        let differing = (0..<bytes.count).filter { bytes[$0] != body[$0] }
        #expect(differing == Array(stride(from: 99, to: body.count, by: 100)))
        #expect(differing.allSatisfy { bytes[$0] == ~body[$0] })
    }

    @Test("Refuse: a new connection closed at once is connectionLost or connectionFailed")
    func refuse() async throws {
        let upstream = try TestHTTPServer { _ in .complete(contentType: "audio/mpeg", body: Data(count: 1024)) }
        // Not stopped here: its deinit stops it, and a second `stop()` would hang in NIO.
        defer { withExtendedLifetime(upstream) {} }
        let proxy = try FaultProxy(upstreamPort: upstream.port, mode: .refuse)
        defer { proxy.stop() }
        let source = HTTPByteSource(url: proxy.url("/x.mp3"))
        defer { source.close() }
        let error = await #expect(throws: PlaybackError.self) {
            try await onOwnThread { try readUpTo(source, count: 1, timeout: 15) }
        }
        #expect(error.map { [.connectionLost, .connectionFailed].contains($0.code) } == true, "\(String(describing: error))")
        #expect(proxy.connectionCount >= 1)
        #expect(upstream.requests.isEmpty)
    }

    @Test("Trickle: throughput stays near the configured rate")
    func trickle() async throws {
        let body = Data(repeating: 0x55, count: 4 << 20)
        let upstream = try TestHTTPServer { _ in .complete(contentType: "audio/mpeg", body: body) }
        // Not stopped here: its deinit stops it, and a second `stop()` would hang in NIO.
        defer { withExtendedLifetime(upstream) {} }
        let proxy = try FaultProxy(upstreamPort: upstream.port, mode: .trickle(bytesPerSecond: 4_000))
        defer { proxy.stop() }
        let source = HTTPByteSource(url: proxy.url("/big.mp3"), endOfBodyIsEnd: true)
        defer { source.close() }
        // Reads for 2 s (the reader stops at its timeout and closes the source).
        let bytes = await onOwnThread { () -> [UInt8] in
            do { return try readUpTo(source, count: 4 << 20, timeout: 2) } catch { return [] }
        }
        let forwarded = proxy.bytesForwardedDownstream
        // 2 s at 4,000 B/s is 8,000 bytes plus the head; a generous bound against scheduling.
        #expect(forwarded > 0)
        #expect(forwarded < 40_000, "forwarded \(forwarded) bytes")
        #expect(bytes.count < 40_000)
        #expect(upstream.requests.count == 1)
    }

    @Test("Mode changes reach a live connection: stall, then pass again resumes the stream")
    func stallThenPass() async throws {
        let server = try await onOwnThread { try IcecastServer() }
        defer { server.stop() }
        let proxy = try FaultProxy(upstreamPort: server.port)
        defer { proxy.stop() }
        let source = HTTPByteSource(url: proxy.url(IcecastServer.mount))
        defer { source.close() }
        _ = try await onOwnThread { try readUpTo(source, count: 16 * 1024, timeout: 15) }
        proxy.mode = .stall
        // A stall is the absence of bytes, which no event marks: real time shows it, first while
        // the mode reaches the connection (its next 20 ms poll), then while nothing may move.
        try await Task.sleep(for: .milliseconds(500))
        let during = proxy.bytesForwardedDownstream
        try await Task.sleep(for: .milliseconds(500))
        #expect(proxy.bytesForwardedDownstream == during, "a stalled proxy forwarded bytes")
        proxy.mode = .pass
        let more = try await onOwnThread { try readUpTo(source, count: 64 * 1024, timeout: 15) }
        #expect(more.count >= 64 * 1024)
    }

    @Test("Cut, then pass: new connections are cut while cut, then flow; stop() closes everything")
    func cutThenPassThenStop() async throws {
        let upstream = try TestHTTPServer { _ in .complete(contentType: "audio/mpeg", body: Data(repeating: 0xAB, count: 4096)) }
        // Not stopped here: its deinit stops it, and a second `stop()` would hang in NIO.
        defer { withExtendedLifetime(upstream) {} }
        let proxy = try FaultProxy(upstreamPort: upstream.port)
        defer { proxy.stop() }
        proxy.mode = .cut
        let during = HTTPByteSource(url: proxy.url("/a.mp3"), endOfBodyIsEnd: true)
        defer { during.close() }
        let error = await #expect(throws: PlaybackError.self) {
            try await onOwnThread { try readUpTo(during, count: 1, timeout: 15) }
        }
        #expect(error.map { [.connectionLost, .connectionFailed].contains($0.code) } == true, "\(String(describing: error))")
        proxy.mode = .pass
        let after = HTTPByteSource(url: proxy.url("/b.mp3"), endOfBodyIsEnd: true)
        defer { after.close() }
        let bytes = try await onOwnThread { try readUpTo(after, count: 1 << 20, timeout: 15) }
        #expect(bytes == [UInt8](repeating: 0xAB, count: 4096))
        #expect(proxy.connectionCount >= 2)
        await onOwnThread { proxy.stop() }
        #expect(proxy.openConnectionCount == 0)
        // The listener is closed. Asked of the proxy, not of the port: a freed loopback port may
        // be taken at once by another test's server, which would answer a connection to it.
        #expect(!proxy.isListening, "the stopped proxy still listens")
    }

    // MARK: - Icecast harness faults

    @Test("Icecast killed and restarted 2 s later on the same port serves audio again")
    func restart() async throws {
        let server = try await onOwnThread { try IcecastServer() }
        defer { server.stop() }
        let first = HTTPByteSource(url: server.streamURL)
        defer { first.close() }
        _ = try await onOwnThread { try readUpTo(first, count: 16 * 1024, timeout: 15) }
        server.kill()
        let error = await #expect(throws: PlaybackError.self) {
            try await onOwnThread { try readUpTo(first, count: 100 << 20, timeout: 20) }
        }
        #expect(error.map { [.connectionLost, .connectionFailed].contains($0.code) } == true, "\(String(describing: error))")
        // The server stays down for a while, as the test's name says: nothing to wait for.
        try await Task.sleep(for: .seconds(2))
        try await onOwnThread { try server.restart() }
        let second = HTTPByteSource(url: server.streamURL)
        defer { second.close() }
        let bytes = try await onOwnThread { try readUpTo(second, count: 32 * 1024, timeout: 15) }
        #expect(bytes.count >= 32 * 1024)
        #expect(hasFrameSync(bytes))
    }

    @Test("Source stopped: the listener's read fails, new requests get 404; started again: audio")
    func sourceStopAndStart() async throws {
        let server = try await onOwnThread { try IcecastServer() }
        defer { server.stop() }
        let listener = HTTPByteSource(url: server.streamURL)
        defer { listener.close() }
        _ = try await onOwnThread { try readUpTo(listener, count: 16 * 1024, timeout: 15) }
        try await onOwnThread { try server.stopSource() }
        let dropped = await #expect(throws: PlaybackError.self) {
            try await onOwnThread { try readUpTo(listener, count: 100 << 20, timeout: 20) }
        }
        #expect(dropped?.code == .connectionLost, "\(String(describing: dropped))")
        let missing = HTTPByteSource(url: server.streamURL)
        defer { missing.close() }
        let notFound = await #expect(throws: PlaybackError.self) {
            try await onOwnThread { try readUpTo(missing, count: 1, timeout: 15) }
        }
        #expect(notFound?.code == .httpNotFound, "\(String(describing: notFound))")
        try await onOwnThread { try server.startSource() }
        let again = HTTPByteSource(url: server.streamURL)
        defer { again.close() }
        let bytes = try await onOwnThread { try readUpTo(again, count: 16 * 1024, timeout: 15) }
        #expect(bytes.count >= 16 * 1024)
    }

    @Test("Icecast answers Icy-MetaData: 1 with icy-metaint and puts raw title bytes in the block")
    func rawTitleBytes() async throws {
        let server = try await onOwnThread { try IcecastServer() }
        defer { server.stop() }
        let intervals = SharedTitles()
        func block(_ bytes: [UInt8], _ charset: String) async throws -> [UInt8] {
            try await onOwnThread { () -> [UInt8] in
                try server.setTitle(bytes: bytes, charset: charset)
                let (interval, block) = try server.firstMetadataBlock()
                intervals.append("\(interval)")
                return Array(block.prefix { $0 != 0 })  // without the NUL padding
            }
        }
        func streamTitle(_ bytes: [UInt8]) -> [UInt8] { Array("StreamTitle='".utf8) + bytes + Array("';".utf8) }
        // Latin-1 declared as such passes unchanged.
        let got1 = try await block([0x43, 0x61, 0x66, 0xE9], "ISO-8859-1")
        #expect(got1 == streamTitle([0x43, 0x61, 0x66, 0xE9]), "\(got1)")
        // UTF-8 is converted to the mount's Latin-1.
        let got2 = try await block(Array("Café".utf8), "UTF-8")
        #expect(got2 == streamTitle([0x43, 0x61, 0x66, 0xE9]), "\(got2)")
        // Invalid UTF-8 cuts the title at the bad byte.
        let got3 = try await block([0x41, 0x9D, 0x42], "UTF-8")
        #expect(got3 == streamTitle([0x41]), "\(got3)")
        // A raw C1 byte declared as Latin-1 arrives raw.
        let got4 = try await block([0x41, 0x9D, 0x42], "ISO-8859-1")
        #expect(got4 == streamTitle([0x41, 0x9D, 0x42]), "\(got4)")
        // ESC sequences and OSC 52 pass through untouched.
        let osc52 = Array("X\u{1B}]52;c;ZXZpbA==\u{07}\u{1B}[2JY".utf8)
        let got5 = try await block(osc52, "UTF-8")
        #expect(got5 == streamTitle(osc52), "\(got5)")
        // A bidi override has no Latin-1 form: libxml2 writes a character reference.
        let got6 = try await block(Array("abc\u{202E}def".utf8), "UTF-8")
        #expect(got6 == streamTitle(Array("abc&#8238;def".utf8)), "\(got6)")
        // Too long for Icecast's request head: the harness says so instead of a reset.
        #expect(throws: IcecastServer.Failure.self) {
            try server.setTitle(bytes: Array(repeating: 0x4C, count: 4_000), charset: "UTF-8")
        }
        #expect(intervals.all == Array(repeating: "\(IcecastServer.metaInterval)", count: 6))
    }

    @Test("Sanitised titles: Latin-1 decodes, OSC 52 and C1 never reach onMetadata")
    func hostileTitlesThroughTheSource() async throws {
        let server = try await onOwnThread { try IcecastServer() }
        defer { server.stop() }
        let hostile: [UInt8] = Array("Caf".utf8) + [0xE9, 0x20, 0x9D] + Array("\u{1B}]52;c;ZXZpbA==\u{07}\u{1B}[31mRed".utf8)
        try await onOwnThread { try server.setTitle(bytes: hostile, charset: "ISO-8859-1") }
        let titles = SharedTitles()
        let source = HTTPByteSource(url: server.streamURL) { metadata in
            if let title = metadata.title { titles.append(title) }
        }
        defer { source.close() }
        let title = try await onOwnThread { () -> String? in
            let deadline = Date().addingTimeInterval(15)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while Date() < deadline {
                _ = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
                if let first = titles.first { return first }
            }
            return nil
        }
        let text = try #require(title)
        #expect(text.hasPrefix("Café"), "\(text.debugDescription)")
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(text.debugDescription)")
        #expect(text.hasSuffix("Red"), "\(text.debugDescription)")
    }
}

// MARK: - Helpers

/// Strings collected across threads (titles from the body task).
private final class SharedTitles: @unchecked Sendable {
    private let lock = NSLock()
    private var titles: [String] = []
    func append(_ title: String) { lock.withLock { titles.append(title) } }
    var first: String? { lock.withLock { titles.first } }
    var all: [String] { lock.withLock { titles } }
}

/// True when `bytes` holds an MPEG audio frame header.
private func hasFrameSync(_ bytes: [UInt8]) -> Bool {
    guard bytes.count > 2 else { return false }
    for index in 0..<(bytes.count - 2) where bytes[index] == 0xFF {
        if [0xFB, 0xFA, 0xF3, 0xF2, 0xE3, 0xE2].contains(bytes[index + 1]), bytes[index + 2] >> 4 != 0x0F { return true }
    }
    return false
}
