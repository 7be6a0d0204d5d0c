import Foundation
import TestProcesses
import Testing

/// A local file is shown by its tags wherever it appears: `tonearm play`'s JSONL events and MPRIS
/// (`playerctl`), with its embedded cover as `mpris:artUrl`.
@Suite("Tagged songs", .serialized, .blocking)
struct TaggedSongTests {
    /// A folder with `song.mp3`: `seconds` of tone, tagged, with a blue JPEG as its front cover.
    static func taggedSong(seconds: Int) throws -> (folder: URL, song: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-tagged-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let tags = [
            ("title", "Tagged Song"), ("artist", "Tag Artist"), ("album", "Tag Album"), ("album_artist", "Album People"),
            ("track", "3/12"), ("disc", "2/2"), ("genre", "Jazz"), ("composer", "Tag Composer"),
        ]
        let data = try FFmpegFixture.make(
            ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds)", "-f", "lavfi", "-i", "color=blue:s=8x8:d=0.1",
             "-map", "0", "-map", "1", "-frames:v", "1", "-c:v", "mjpeg", "-disposition:v", "attached_pic",
             "-metadata:s:v", "comment=Cover (front)", "-id3v2_version", "4"]
                + tags.flatMap { ["-metadata", "\($0.0)=\($0.1)"] },
            fileName: "song.mp3"
        ).get()
        let song = folder.appendingPathComponent("song.mp3")
        try data.write(to: song)
        return (folder, song)
    }

    @Test func playEventsTellTheSongsTitleArtistAndAlbum() throws {
        let (folder, song) = try Self.taggedSong(seconds: 1)
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try PlaybackCommandTests.run(["play", song.path, "--output", "null", "--events", "jsonl"])
        #expect(r.status == 0, "stderr: \(r.err)")
        let playing = r.events.first { $0["state"] as? String == "playing" }?["track"] as? [String: Any]
        #expect(playing?["title"] as? String == "Tagged Song", "\(String(describing: playing))")
        #expect(playing?["artist"] as? String == "Tag Artist")
        #expect(playing?["album"] as? String == "Tag Album")
    }

    @Test func playerctlReadsTheSongsTagsAndCover() throws {
        let bus = try DBusSession()
        let (folder, song) = try Self.taggedSong(seconds: 30)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("cache")
        let tonearm = try MPRISTests.Running(["play", song.path, "--output", "null"], bus: bus.address, environment: ["XDG_CACHE_HOME": cache.path])
        defer { tonearm.end() }
        #expect(try bus.wait(for: ["-p", "tonearm", "status"], timeout: 20) { $0 == "Playing" }.matched, "stderr: \(tonearm.stderr)")
        func read(_ key: String) throws -> String { try bus.playerctl(["-p", "tonearm", "metadata", key]).out }
        #expect(try read("xesam:title") == "Tagged Song")
        #expect(try read("xesam:artist") == "Tag Artist")
        #expect(try read("xesam:album") == "Tag Album")
        #expect(try read("xesam:albumArtist") == "Album People")
        #expect(try read("xesam:genre") == "Jazz")
        #expect(try read("xesam:composer") == "Tag Composer")
        #expect(try read("xesam:trackNumber") == "3")
        #expect(try read("xesam:discNumber") == "2")
        let art = try #require(URL(string: try read("mpris:artUrl")))
        #expect(art.isFileURL && art.path.hasPrefix(cache.path), "\(art)")
        let picture = try Data(contentsOf: art)
        #expect(picture.starts(with: [0xFF, 0xD8, 0xFF]), "the embedded JPEG, as it is")
    }
}
