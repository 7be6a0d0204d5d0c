import Foundation
import PlayerCore
import Testing

@testable import MPRIS

/// A local file's tags in MPRIS's Metadata: the xesam fields beyond title, artist and album.
@Suite("MPRIS song tags")
struct MPRISSongTagsTests {
    static let tags = SongTags(values: [
        .title: ["Song"], .artist: ["One", "Two"], .album: ["LP"], .albumArtist: ["Both"], .genre: ["Jazz", "Funk"],
        .composer: ["Writer"], .track: ["3/12"], .disc: ["2/2"],
    ])

    @Test func aTaggedFileHasItsAlbumArtistNumbersAndGenres() throws {
        let track = Track.localFile(id: "f", url: URL(fileURLWithPath: "/music/song.mp3"), tags: Self.tags, duration: 100)
        let state = MPRISState(state: .playing(track: track))
        #expect(state.title == "Song")
        #expect(state.artist == "One, Two")
        #expect(state.album == "LP")
        let song = try #require(state.song)
        #expect(song.artists == ["One", "Two"])
        #expect(song.albumArtists == ["Both"])
        #expect(song.genres == ["Jazz", "Funk"])
        #expect(song.composers == ["Writer"])
        #expect(song.trackNumber == 3)
        #expect(song.discNumber == 2)
    }

    @Test func withoutTagsTheFileNameIsTheTitleAndNoSongFieldsAreSent() {
        let track = Track.localFile(id: "f", url: URL(fileURLWithPath: "/music/song name.flac"), tags: nil, duration: 100)
        let state = MPRISState(state: .playing(track: track))
        #expect(state.title == "song name")
        #expect(state.artist == nil)
        #expect(state.song == nil)
    }

    @Test func otherTagsChangeTheMetadata() {
        var retagged = Self.tags
        retagged[all: .genre] = ["Blues"]
        let url = URL(fileURLWithPath: "/music/song.mp3")
        let before = MPRISState(state: .playing(track: .localFile(id: "f", url: url, tags: Self.tags)))
        let after = MPRISState(state: .playing(track: .localFile(id: "f", url: url, tags: retagged)))
        #expect(after.changedProperties(since: before) == ["Metadata"])
    }
}
