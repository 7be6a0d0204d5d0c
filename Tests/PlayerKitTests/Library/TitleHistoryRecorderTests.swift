import Foundation
import Library
import LibraryKit
import Logging
import PlayerCore
import PlayerKit
import Testing

/// What a station plays goes into the history as it is announced, and `l` likes the song playing
/// now: never one from before a jingle, never one from another station.
@Suite("Title history recorder")
struct TitleHistoryRecorderTests {
    static func recorder() throws -> (TitleHistoryRecorder, LibraryStore, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-history-\(UUID().uuidString)")
        let store = try LibraryStore.open(directory: dir)
        let clock = Date(timeIntervalSince1970: 1_800_000_000)
        return (TitleHistoryRecorder(store: store, now: { clock }, logger: Logger(label: "test")), store, dir)
    }

    static let station = Track(id: "s", url: URL(string: "http://radio.example/live")!, kind: .liveStream, title: "Night FM")

    static func title(_ title: String?, artist: String? = nil, artwork: NowPlayingMetadata.ArtworkKind = .real) -> PlayerUpdate {
        .notice(.metadata(NowPlayingMetadata(title: title, artist: artist, station: "Fixture FM", artwork: artwork)), audioTime: 0)
    }

    @Test func aSongIsKeptUnderTheStationsNameAndLiked() throws {
        let (recorder, store, dir) = try Self.recorder()
        defer { try? FileManager.default.removeItem(at: dir) }
        recorder.observe(.state(.playing(track: Self.station), audioTime: 0, now: .zero))
        recorder.observe(Self.title("Slow Song", artist: "Night Band"))
        recorder.observe(Self.title("Slow Song", artist: "Night Band"))
        #expect(try store.history().map(\.title) == ["Slow Song"], "a repeat is kept once")
        #expect(try store.history().first?.station == "Night FM")
        #expect(try recorder.likeCurrent()?.title == "Slow Song")
        #expect(try store.favourites().count == 1)
    }

    @Test func aJingleAfterASongLeavesNothingToLike() throws {
        let (recorder, store, dir) = try Self.recorder()
        defer { try? FileManager.default.removeItem(at: dir) }
        recorder.observe(.state(.playing(track: Self.station), audioTime: 0, now: .zero))
        recorder.observe(Self.title("Slow Song", artist: "Night Band"))
        recorder.observe(Self.title("Fixture FM", artwork: .station))
        #expect(try recorder.likeCurrent() == nil)
        #expect(try store.favourites().isEmpty)
        #expect(try store.history().map(\.title) == ["Slow Song"], "the station's identity is not a song heard")
    }

    @Test func anotherStationForgetsTheSongOfTheLast() throws {
        let (recorder, _, dir) = try Self.recorder()
        defer { try? FileManager.default.removeItem(at: dir) }
        recorder.observe(.state(.playing(track: Self.station), audioTime: 0, now: .zero))
        recorder.observe(Self.title("Slow Song"))
        let other = Track(id: "t", url: URL(string: "http://other.example/live")!, kind: .liveStream, title: "Day FM")
        recorder.observe(.state(.preparing(track: other), audioTime: 0, now: .zero))
        #expect(try recorder.likeCurrent() == nil)
    }
}
