import Foundation
import PlayerCore
import Testing

@testable import Library
@testable import LibraryKit

/// A cue sheet's track of the index (the Music tab, `tonearm music play`) plays its image's
/// file from its part; any other song plays its own file.
@Suite("A cue track's player item")
struct MusicCueTrackItemTests {
    @Test func aCueTrackPlaysItsImageAndKeepsItsPart() {
        let folder = URL(fileURLWithPath: "/music", isDirectory: true)
        var tags = SongTags(values: [.title: ["Middle"]], audio: AudioProperties(duration: 3))
        tags.part = SongPart(image: "Album/image.flac", startFrame: 150, endFrame: 375)
        let track = MusicSongRecord(
            id: 7, path: "Album/image.cue/track0002", stamp: MusicFileStamp(modified: 0, size: 1), added: Date(timeIntervalSince1970: 0),
            tags: tags, failure: nil)
        let item = track.queueItem(in: folder)
        #expect(item.track.url.path == "/music/Album/image.flac")
        #expect(item.track.tags?.part?.startFrame == 150 && item.track.title == "Middle" && item.track.duration == 3)

        let plain = MusicSongRecord(
            id: 8, path: "Album/other.flac", stamp: MusicFileStamp(modified: 0, size: 1), added: Date(timeIntervalSince1970: 0),
            tags: SongTags(), failure: nil)
        #expect(plain.queueItem(in: folder).track.url.path == "/music/Album/other.flac")
    }
}
