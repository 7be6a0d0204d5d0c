import AudioEngine
import Foundation
import PlayerCore
import PlayerKit
import Presentation
import TestProcesses
import Testing

/// HLS live radio end to end against a real live playlist: ffmpeg's hls muxer writing 1 s
/// segments into a folder served on loopback, as a station's packager does; faults injected at the
/// server. ffmpeg or the server failing to start fails the test (never a skip).
@Suite("HLS radio against a live playlist", .serialized, .blocking)
struct HLSRadioTests {
    static func start(_ segments: HLSLiveServer.Segments = .mpegts, twoRenditions: Bool = false) async throws -> HLSLiveServer {
        try await onOwnThread { try HLSLiveServer(segments: segments, twoRenditions: twoRenditions) }
    }

    static func positions(_ updates: [PlayerUpdate], after mark: Int = 0) -> [Double] {
        updates.dropFirst(mark).compactMap { if case .position(let s, _, _) = $0 { s } else { nil } }
    }

    @Test(arguments: [HLSLiveServer.Segments.mpegts, .fmp4])
    func aLivePlaylistPlaysFromNearItsEdge(segments: HLSLiveServer.Segments) async throws {
        let hls = try await Self.start(segments)
        defer { hls.stop() }
        let radio = try await RadioHarness()
        try await radio.playUntilPlaying(hls.url)
        #expect(await radio.waitUntil("three seconds of audio", timeout: 30) { (Self.positions(radio.updates).last ?? 0) > 3 })
        #expect(!radio.names.contains(.failed) && !radio.names.contains(.reconnecting), "\(radio.names)")
        // The segments' bitrate, as the decoder reads it: about 128 kbit/s.
        let bitrates = radio.updates.compactMap { if case .connection(let q, _) = $0 { q.bitrate } else { nil } }
        #expect(bitrates.contains { (96...160).contains($0) }, "\(bitrates)")
        await radio.shutdown()
    }

    @Test func missingSegmentsAreADropThatReconnectsAndPlaysAgain() async throws {
        let hls = try await Self.start()
        defer { hls.stop() }
        let radio = try await RadioHarness()
        try await radio.playUntilPlaying(hls.url)
        hls.segmentsMissing = true
        // Until the buffer runs dry the reconnect is in the background; then it shows.
        let reconnecting = try #require(await radio.waitFor("reconnecting", timeout: 60) { $0.name == .reconnecting })
        guard case .reconnecting(_, _, _, _, let cause) = reconnecting else { return }
        #expect(cause.isRetryable || cause.code == .streamUnavailable, "\(cause)")
        let mark = radio.states.count
        hls.segmentsMissing = false
        await radio.waitFor("playing again", timeout: 60, after: mark) { $0.name == .playing }
        let updatesMark = radio.updates.count
        #expect(await radio.waitUntil("audio flowing again", timeout: 20) {
            let after = Self.positions(radio.updates, after: updatesMark)
            return (after.last ?? 0) > (after.first ?? 0) + 1
        })
        #expect(!radio.names.contains(.finished))
        await radio.shutdown()
    }

    @Test func aFrozenPlaylistIsAStallThatReconnects() async throws {
        let hls = try await Self.start()
        defer { hls.stop() }
        let radio = try await RadioHarness()
        try await radio.playUntilPlaying(hls.url)
        hls.freezePlaylist(true)
        let reconnecting = try #require(await radio.waitFor("reconnecting", timeout: 60) { $0.name == .reconnecting })
        guard case .reconnecting(_, _, _, _, let cause) = reconnecting else { return }
        #expect(cause.code == .stalled, "\(cause)")
        let statesMark = radio.states.count
        hls.freezePlaylist(false)
        await radio.waitFor("playing again", timeout: 60, after: statesMark) { $0.name == .playing }
        #expect(!radio.names.contains(.finished))
        await radio.shutdown()
    }

    @Test func aServerStoppedAndStartedAgainIsReconnectedAndPlaysOn() async throws {
        let hls = try await Self.start()
        defer { hls.stop() }
        let radio = try await RadioHarness()
        try await radio.playUntilPlaying(hls.url)
        hls.stopServing()
        // Refused connections: the drop is noticed at the next reload and reconnected (in the
        // background, then visibly once the buffer is gone); the server is back before either
        // gives up.
        let bufferGone = await radio.waitUntil("the drop noticed", timeout: 30) {
            radio.updates.contains { if case .connection(let q, _) = $0 { q.reconnecting } else { false } }
                || radio.names.contains(.reconnecting)
        }
        #expect(bufferGone)
        // The server stays down a while, so reconnects meet refused connections: a span of real
        // time, which no event marks.
        try await Task.sleep(for: .seconds(2))
        try hls.resumeServing()
        let mark = radio.updates.count
        #expect(await radio.waitUntil("audio flowing again", timeout: 40) {
            let after = Self.positions(radio.updates, after: mark)
            return (after.last ?? 0) > (after.first ?? 0) + 2
        })
        #expect(radio.states.last?.name == .playing, "\(String(describing: radio.states.last))")
        #expect(!radio.names.contains(.failed) && !radio.names.contains(.finished), "\(radio.names)")
        // The refused attempts in the background were not held against the host: its breaker
        // never kept the reconnect away from the server once it was back.
        let causes = radio.states.compactMap { if case .reconnecting(_, _, _, _, let cause) = $0 { cause.code } else { nil } }
        #expect(!causes.contains(.circuitOpen), "\(causes)")
        await radio.shutdown()
    }

    @Test func aRenditionTheLineDoesNotCarryIsLeftForALowerOne() async throws {
        let hls = try await Self.start(twoRenditions: true)
        defer { hls.stop() }
        // The 192 kbit/s rendition comes at half real time; the 48 kbit/s one at loopback speed.
        hls.slowRendition = 0
        let radio = try await RadioHarness()
        try await radio.playUntilPlaying(hls.url)
        #expect(await radio.waitUntil("a segment of the lower rendition asked for", timeout: 30) {
            hls.requestedPaths.contains { $0.hasPrefix("/v1/seg") }
        })
        let mark = radio.updates.count
        #expect(await radio.waitUntil("audio flowing on the lower rendition", timeout: 30) {
            let after = Self.positions(radio.updates, after: mark)
            return (after.last ?? 0) > (after.first ?? 0) + 3
        })
        // It started on the higher one, and stays on the lower one: no flipping back.
        let paths = hls.requestedPaths.filter { $0.contains("/seg") }
        #expect(paths.first?.hasPrefix("/v0/") == true, "\(paths)")
        let firstLow = try #require(paths.firstIndex { $0.hasPrefix("/v1/") })
        #expect(!paths[firstLow...].contains { $0.hasPrefix("/v0/") }, "\(paths)")
        #expect(!radio.names.contains(.failed), "\(radio.names)")
        await radio.shutdown()
    }

    @Test func songTitlesComeFromTheSegmentsTimedMetadata() async throws {
        let hls = try HLSPackedAudioServer(songs: [("Band", "First"), ("Band", "Second"), ("Other Band", "Third")])
        defer { hls.stop() }
        let radio = try await RadioHarness()
        try await radio.playUntilPlaying(hls.url)
        // The segments' ID3 tags, in order, as the listener's titles (no #EXTINF title is given).
        #expect(await radio.waitUntil("the third segment's title", timeout: 30) { radio.metadata.contains { $0.title == "Third" } })
        let third = radio.metadata.first { $0.title == "Third" }
        #expect(third?.artist == "Other Band", "\(String(describing: third))")
        let titles = radio.metadata.compactMap(\.title).filter { ["First", "Second", "Third"].contains($0) }
        #expect(titles.first == "First", "\(titles)")
        await radio.shutdown()
    }
}
