import Clocks
import Foundation
import PlayerCore
import Synchronization
import TestProcesses
import Testing

@testable import Streaming

/// The HLS source's own facts, against a loopback server answering hand-written playlists.
@Suite("HLS byte source", .blocking)
struct HLSByteSourceTests {
    /// A live playlist that stops growing is a fact, told after each load that brought no new
    /// segment with the count so far; the source never gives the stream up itself (that is the
    /// player's decision). Its loads wait on the injected clock: the playlist's target duration is
    /// an hour, so the five loads come within the test's time limit only because it moves the clock.
    /// (The limit leaves room for the wait of a blocking test for its turn: `TestSlots`.)
    @Test(.timeLimit(.minutes(10)))
    func aLivePlaylistThatStopsGrowingIsToldAsUnchangedLoads_countedOnTheInjectedClock() async throws {
        // A live playlist (no #EXT-X-ENDLIST) that never grows.
        let playlist = Data("#EXTM3U\n#EXT-X-TARGETDURATION:3600\n#EXT-X-MEDIA-SEQUENCE:7\n#EXTINF:3600,\na.ts\n#EXTINF:3600,\nb.ts\n".utf8)
        let server = try TestHTTPServer { request in
            if request.path.hasSuffix(".m3u8") { return .complete(contentType: "application/vnd.apple.mpegurl", body: playlist) }
            return .complete(contentType: "video/mp2t", body: Data(repeating: 0x47, count: 1880))
        }
        defer { server.stop() }
        let facts = ConnectionFactLog()
        let clock = TestClock()
        let source = HLSByteSource(url: server.url("/live.m3u8"), network: NetworkClient(breakers: nil), connection: facts.link, clock: clock)
        defer { source.close() }
        #expect(try source.waitForFirstBytes())
        let unchanged = { facts.all.compactMap { if case .playlistUnchanged(let loads) = $0 { loads } else { nil } } }
        for loads in 1...5 {
            // A target duration covers the wait after a load that brought segments and after one
            // that brought none (half of it). The source may not sleep yet when the clock moves:
            // then it is moved again.
            var told = false
            for _ in 0..<20 where !told {
                await clock.advance(by: .seconds(3600))
                told = facts.wait(timeout: 1) { _ in unchanged().count >= loads }
            }
            #expect(told, "load \(loads): \(facts.all)")
        }
        // In a row, from 1 (a move of the clock may let one more load through before the test looks).
        let counts = unchanged()
        #expect(counts.count >= 5 && counts == Array(1...counts.count), "\(facts.all)")
        #expect(!facts.all.contains { if case .dropped = $0 { true } else { false } }, "\(facts.all)")
        #expect(server.requests.filter { $0.path.hasSuffix(".m3u8") }.count >= 6, "\(server.requests.map(\.path))")
        // Both segments were delivered once, in order.
        #expect(server.requests.map(\.path).filter { $0.hasSuffix(".ts") } == ["/a.ts", "/b.ts"])
    }

    /// One read that crosses several segments' first bytes (the decoder's first probe does) tells
    /// every title it passed, in order: each song is one the listener's history keeps.
    @Test func aReadAcrossSeveralSegmentsTellsEachTitleInOrder() throws {
        let playlist = Data(
            "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:2,One\na.ts\n#EXTINF:2,Two\nb.ts\n#EXTINF:2,Three\nc.ts\n".utf8)
        let server = try TestHTTPServer { request in
            if request.path.hasSuffix(".m3u8") { return .complete(contentType: "application/vnd.apple.mpegurl", body: playlist) }
            return .complete(contentType: "video/mp2t", body: Data(repeating: 0x47, count: 1880))
        }
        defer { server.stop() }
        let titles = Mutex<[String]>([])
        let source = HLSByteSource(
            url: server.url("/live.m3u8"), network: NetworkClient(breakers: nil), clock: ContinuousClock(),
            onTitle: { title in titles.withLock { $0.append(title) } })
        defer { source.close() }
        #expect(try source.waitForFirstBytes())
        // All three segments in the ring before the reader takes anything.
        _ = eventuallyBlocking(timeout: 20) { source.bufferedBytes >= 3 * 1880 }
        #expect(source.bufferedBytes == 3 * 1880)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 8192, alignment: 1)
        defer { buffer.deallocate() }
        #expect(try source.read(into: buffer) == 3 * 1880)
        #expect(titles.withLock { $0 } == ["One", "Two", "Three"])
    }
}
