import Foundation
import PlayerCore
import Synchronization
import TestProcesses
import Testing

@testable import Streaming

/// The HLS source's own facts, against a loopback server answering hand-written playlists.
@Suite("HLS byte source", .blocking)
struct HLSByteSourceTests {
    @Test func aLivePlaylistThatStopsGrowingIsAStallDropAfterThreeTargetDurations() throws {
        // A live playlist (no #EXT-X-ENDLIST) with a target duration of 1 s that never grows.
        let playlist = Data("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:7\n#EXTINF:1,\na.ts\n#EXTINF:1,\nb.ts\n".utf8)
        let server = try TestHTTPServer { request in
            if request.path.hasSuffix(".m3u8") { return .complete(contentType: "application/vnd.apple.mpegurl", body: playlist) }
            return .complete(contentType: "video/mp2t", body: Data(repeating: 0x47, count: 1880))
        }
        defer { server.stop() }
        let facts = ConnectionFactLog()
        let source = HLSByteSource(url: server.url("/live.m3u8"), network: NetworkClient(breakers: nil), connection: facts.link)
        defer { source.close() }
        #expect(try source.waitForFirstBytes())
        let dropped = facts.wait(timeout: 20) { $0.contains { if case .dropped = $0 { true } else { false } } }
        #expect(dropped, "\(facts.all)")
        let cause = facts.all.compactMap { if case .dropped(let error) = $0 { error } else { nil } }.first
        #expect(cause?.code == .stalled, "\(String(describing: cause))")
        // Told only after the first load and five reloads that brought nothing.
        let playlistRequests = server.requests.filter { $0.path.hasSuffix(".m3u8") }.count
        #expect(playlistRequests >= 1 + HLSByteSource.barrenReloadsBeforeStall, "\(server.requests.map(\.path))")
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
            url: server.url("/live.m3u8"), network: NetworkClient(breakers: nil), onTitle: { title in titles.withLock { $0.append(title) } })
        defer { source.close() }
        #expect(try source.waitForFirstBytes())
        // All three segments in the ring before the reader takes anything.
        let deadline = Date().addingTimeInterval(20)
        while source.bufferedBytes < 3 * 1880, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(source.bufferedBytes == 3 * 1880)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 8192, alignment: 1)
        defer { buffer.deallocate() }
        #expect(try source.read(into: buffer) == 3 * 1880)
        #expect(titles.withLock { $0 } == ["One", "Two", "Three"])
    }
}
