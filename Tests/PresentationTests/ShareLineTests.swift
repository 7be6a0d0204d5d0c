import Foundation
import PlayerCore
import Testing

@testable import Presentation

/// What the share key gives, for each kind of thing playing, and what it never gives away.
@Suite("Share line")
struct ShareLineTests {
    @Test func aSongOnAStationNamesBothAndTheStreamWithoutItsToken() {
        let track = Track(id: "s", url: URL(string: "https://user:pw@radio.example/live.mp3?listener=12345#x")!, kind: .liveStream, title: "Jazz FM")
        var metadata = NowPlayingMetadata(title: "So What", artist: "Miles Davis", station: "Jazz FM", artwork: .real)
        #expect(ShareLine.line(track: track, metadata: metadata, position: 99) == "♪ Miles Davis – So What — on Jazz FM https://radio.example/live.mp3")
        // A jingle (the title is the station's own): the station alone.
        metadata.artwork = .station
        #expect(ShareLine.line(track: track, metadata: metadata, position: 0) == "Jazz FM https://radio.example/live.mp3")
    }

    @Test func anEpisodeGivesItsAddressAtTheCurrentTime() {
        let track = Track(id: "e", url: URL(string: "https://cdn.example/ep42.mp3")!, kind: .episode, title: "Episode 42", album: "The Show")
        #expect(ShareLine.line(track: track, metadata: nil, position: 754.9) == "Episode 42 — The Show https://cdn.example/ep42.mp3#t=754")
        #expect(ShareLine.line(track: track, metadata: nil, position: 0) == "Episode 42 — The Show https://cdn.example/ep42.mp3")
        // Downloaded: played from a file here, so the time, not the path.
        let kept = Track(id: "e", url: URL(fileURLWithPath: "/home/anna/.local/share/tonearm/episodes/e.mp3"), kind: .episode, title: "Episode 42", album: "The Show")
        #expect(ShareLine.line(track: kept, metadata: nil, position: 3_725) == "Episode 42 — The Show at 1:02:05")
    }

    @Test func aFileIsItsTitleNeverItsPathAndTheLineIsOneCleanLine() {
        let file = Track(id: "f", url: URL(fileURLWithPath: "/home/anna/Music/private/track01.flac"), kind: .file)
        #expect(ShareLine.line(track: file, metadata: nil, position: 10) == "track01")
        let tagged = NowPlayingMetadata(title: "Line\none\u{1B}[31m", artist: "Band\u{202E}", station: nil, artwork: .real)
        let line = ShareLine.line(track: file, metadata: tagged, position: 10)
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{202E}" })
        #expect(!line.contains("/home/anna"))
    }
}
