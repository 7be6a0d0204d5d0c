import Foundation
import PlayerCore
import Testing

/// A local file's track told by its tags, the tags kept through every copy and through JSON.
@Suite("Track tags")
struct TrackTagsTests {
    static let url = URL(fileURLWithPath: "/music/Some Band - 03 Song.flac")
    static let tags = SongTags(
        values: [.title: ["Song"], .artist: ["One", "Two"], .album: ["LP"], .track: ["3/12"]], audio: AudioProperties(duration: 181.5))

    @Test func theTagsNameTheTrackAndTheFileNameIsTheFallback() {
        let tagged = Track.localFile(id: "a", url: Self.url, tags: Self.tags, duration: 10)
        #expect(tagged.title == "Song")
        #expect(tagged.artist == "One, Two")
        #expect(tagged.album == "LP")
        #expect(tagged.duration == 181.5, "the stream's own duration")
        #expect(tagged.tags == Self.tags)

        let untitled = Track.localFile(id: "b", url: Self.url, tags: SongTags(values: [.artist: ["One"]]), duration: 10)
        #expect(untitled.title == "Some Band - 03 Song")
        #expect(untitled.artist == "One")
        #expect(untitled.duration == 10)

        let unread = Track.localFile(id: "c", url: Self.url, tags: nil)
        #expect(unread.title == "Some Band - 03 Song")
        #expect(unread.artist == nil && unread.album == nil && unread.tags == nil)
    }

    @Test func copiesAndJSONKeepTheTags() throws {
        let track = Track.localFile(id: "a", url: Self.url, tags: Self.tags)
        #expect(track.with(id: "b").tags == Self.tags)
        #expect(track.with(alternates: [URL(fileURLWithPath: "/other.flac")]).tags == Self.tags)
        let decoded = try JSONDecoder().decode(Track.self, from: JSONEncoder().encode(track))
        #expect(decoded == track)
        // A track written before tags existed still reads, without them.
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(track)) as? [String: Any])
        object["tags"] = nil
        let older = try JSONDecoder().decode(Track.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(older.tags == nil && older.title == "Song")
    }

    @Test func aLiveStreamHasNoTags() {
        let live = Track(id: "l", url: URL(string: "https://radio.example/live")!, kind: .liveStream, tags: Self.tags)
        #expect(live.tags == nil)
    }
}
