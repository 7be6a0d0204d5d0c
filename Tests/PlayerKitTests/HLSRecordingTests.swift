import AudioEngine
import Foundation
import PlayerCore
import PlayerKit
import TestProcesses
import Testing

/// A finished HLS playlist (`#EXT-X-ENDLIST`) is a recording: it has a length, it seeks, and its
/// end is a finish, whether it was opened as a station's address or as an episode. Against a
/// playlist ffmpeg's hls muxer writes, served on loopback.
@Suite("HLS recordings (finished playlists)", .serialized, .blocking)
struct HLSRecordingTests {
    static func start() async throws -> HLSRecordingServer {
        try await onOwnThread { try HLSRecordingServer(seconds: 10) }
    }

    static func positions(_ updates: [PlayerUpdate], after mark: Int = 0) -> [(seconds: Double, duration: Double?)] {
        updates.dropFirst(mark).compactMap { if case .position(let s, let d, _) = $0 { (s, d) } else { nil } }
    }

    @Test func aFinishedPlaylistBehindAStationAddressSeeksAndEndsAsAFinish() async throws {
        let hls = try await Self.start()
        defer { hls.stop() }
        let radio = try await RadioHarness()
        try await radio.playUntilPlaying(hls.url)
        // The item is episode-like from the first `playing` on: a length, and seeking allowed.
        let playing = try #require(radio.states.first { $0.name == .playing })
        #expect(playing.currentTrack?.kind == .episode)
        #expect(playing.allowedActions.contains(.seek))
        #expect(await radio.waitUntil("a position with the playlist's length", timeout: 20) {
            Self.positions(radio.updates).contains { ($0.duration ?? 0) > 9.5 && ($0.duration ?? 0) < 10.5 }
        })
        let mark = radio.updates.count
        try await radio.player.seek(to: 7.25)
        #expect(await radio.waitUntil("audio from the seek's target", timeout: 20) {
            Self.positions(radio.updates, after: mark).contains { $0.seconds > 7.4 }
        })
        // Positions after the jump start at the target, not at the segment's start (7 s) nor at 0.
        let afterSeek = Self.positions(radio.updates, after: mark).map(\.seconds).filter { $0 >= 7.25 }
        #expect(afterSeek.first.map { $0 < 8 } == true, "\(afterSeek.prefix(5))")
        // The stream was opened again (its playlist asked for a second time) at the segment
        // holding 7.25 s.
        let paths = hls.requestedPaths
        let reopened = try #require(paths.indices.filter { paths[$0].hasSuffix("/recording.m3u8") }.dropFirst().first, "\(paths)")
        #expect(paths[reopened...].contains { $0.hasSuffix("/part7.ts") }, "\(paths)")
        await radio.waitFor("the recording's end, as a finish", timeout: 30) { $0.name == .finished }
        #expect(!radio.names.contains(.reconnecting) && !radio.names.contains(.failed), "\(radio.names)")
        await radio.shutdown()
    }

    @Test func aFinishedPlaylistAsAnEpisodeStartsAtItsSavedPlace() async throws {
        let hls = try await Self.start()
        defer { hls.stop() }
        let radio = try await RadioHarness()
        let track = Track(id: "recording", url: hls.url, kind: .episode, title: "A past programme")
        try await radio.player.play(PlayRequest(track: track, startPosition: 5.5))
        await radio.waitFor("playing", timeout: 30) { $0.name == .playing }
        #expect(await radio.waitUntil("audio from the saved place", timeout: 20) {
            Self.positions(radio.updates).contains { $0.seconds > 5.7 }
        })
        let heard = Self.positions(radio.updates).map(\.seconds).filter { $0 > 0 }
        #expect(heard.first.map { $0 >= 5.5 && $0 < 6.5 } == true, "\(heard.prefix(5))")
        await radio.waitFor("the end", timeout: 30) { $0.name == .finished }
        await radio.shutdown()
    }
}
