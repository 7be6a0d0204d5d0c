import Foundation
import TestProcesses
import Testing

/// python-mpd2, the MPD client library Home Assistant and many scripts use, against
/// `tonearm serve`: it connects, browses the music database, plays and reads what plays, and
/// fetches cover art in chunks, getting the same pictures mpd 0.23 gives for the same folder.
@Suite("python-mpd2 against tonearm serve", .serialized, .blocking)
struct PythonMPDTests {
    /// The comparison suite's tagged folder, plus a folder image beside the Night Ferry songs and
    /// a song with an embedded front cover.
    static func music(in root: URL) throws {
        try MPDDatabaseComparisonTests.makeMusic(in: root)
        let cover = try FFmpegFixture.make(["-f", "lavfi", "-i", "color=c=blue:s=48x48:d=1", "-frames:v", "1"], fileName: "cover.jpg").get()
        try cover.write(to: root.appendingPathComponent("Aurora Trio/Night Ferry/cover.jpg"))
        let pictured = try FFmpegFixture.make(
            ["-f", "lavfi", "-i", "sine=duration=1", "-f", "lavfi", "-i", "color=c=red:s=64x64:d=1", "-map", "0:a", "-map", "1:v", "-frames:v", "1",
             "-c:v", "mjpeg", "-disposition:v:0", "attached_pic", "-metadata:s:v", "comment=Cover (front)", "-c:a", "libmp3lame",
             "-id3v2_version", "3", "-metadata", "title=Pictured", "-metadata", "artist=Mira"],
            fileName: "pictured.mp3"
        ).get()
        try pictured.write(to: root.appendingPathComponent("pictured.mp3"))
    }

    @Test func coverArtInChunksIsMPDsPictureByte_for_byte() throws {
        let mpd = try MPDDaemonProcess { music in try Self.music(in: URL(fileURLWithPath: music)) }
        defer { mpd.stop() }
        _ = try mpd.updatedClient()
        let daemon = try ServeDaemon(music: URL(fileURLWithPath: mpd.musicDirectory))
        let ours = try daemon.client()
        try #require((try ours.command("list Title").fields.count) == 6, "\(daemon.logTail)")

        // 64 bytes a chunk (mpd's smallest): python-mpd2 asks again and again until it has all.
        func session(_ prefix: String) -> [[String]] {
            [["binarylimit", "64"], ["albumart", "\(prefix)Aurora Trio/Night Ferry/01 Harbour.mp3"], ["readpicture", "\(prefix)pictured.mp3"],
             ["albumart", "\(prefix)loose.ogg"], ["readpicture", "\(prefix)loose.ogg"]]
        }
        let theirs = try PythonMPDClient.run("127.0.0.1:\(mpd.port)", session(""))
        let mine = try PythonMPDClient.run(daemon.socket, session("Music/"))
        try #require(theirs.count == 6 && mine.count == 6, "mpd \(theirs), tonearm \(mine)")
        let cover = try Data(contentsOf: URL(fileURLWithPath: mpd.musicDirectory).appendingPathComponent("Aurora Trio/Night Ferry/cover.jpg"))
        let albumart = mine[2].result as? [String: Any]
        #expect(albumart?["binary_length"] as? Int == cover.count, "\(mine[2])")
        #expect(albumart?["binary_sha256"] as? String == (theirs[2].result as? [String: Any])?["binary_sha256"] as? String)
        let picture = mine[3].result as? [String: Any]
        let theirPicture = theirs[3].result as? [String: Any]
        #expect((picture?["binary_length"] as? Int ?? 0) > 64, "\(mine[3])")
        #expect(picture?["binary_sha256"] as? String == theirPicture?["binary_sha256"] as? String, "mpd \(theirs[3]), tonearm \(mine[3])")
        #expect(picture?["type"] as? String == "image/jpeg" && theirPicture?["type"] as? String == "image/jpeg")
        // No folder image: mpd's "No file exists"; no embedded picture: an empty answer.
        #expect(mine[4].error?.contains("No file exists") == true && theirs[4].error?.contains("No file exists") == true, "\(mine[4])")
        #expect((mine[5].result as? [String: Any])?.isEmpty == true && (theirs[5].result as? [String: Any])?.isEmpty == true)
    }

    @Test func homeAssistantsClientBrowsesPlaysAndReadsTheTags() throws {
        let music = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-music-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: music) }
        try Self.music(in: music)
        // An album long enough to be paused while its first song plays.
        for (number, title) in [(1, "Open Sea"), (2, "Landfall")] {
            let song = try FFmpegFixture.make(
                ["-f", "lavfi", "-i", "sine=frequency=220:duration=30", "-metadata", "title=\(title)", "-metadata", "artist=Aurora Trio",
                 "-metadata", "album=Long Ferry", "-metadata", "track=\(number)", "-c:a", "flac"],
                fileName: "song.flac"
            ).get()
            try FileManager.default.createDirectory(at: music.appendingPathComponent("Aurora Trio/Long Ferry"), withIntermediateDirectories: true)
            try song.write(to: music.appendingPathComponent("Aurora Trio/Long Ferry/0\(number) \(title).flac"))
        }
        let daemon = try ServeDaemon(music: music)
        let client = try daemon.client()
        try #require((try client.command("list Title").fields.count) == 8, "\(daemon.logTail)")
        let outcomes = try PythonMPDClient.run(
            daemon.socket,
            [["status"], ["list", "artist"], ["find", "artist", "Кино"], ["clear"], ["findadd", "album", "Long Ferry"], ["playlistinfo"],
             ["play", "0"], ["currentsong"]])
        try #require(outcomes.count == 9, "\(outcomes)")
        #expect(outcomes.allSatisfy { $0.error == nil }, "\(outcomes.compactMap(\.error))")
        let artists = outcomes[2].result as? [Any]
        #expect(artists?.compactMap { ($0 as? [String: Any])?["artist"] as? String }.contains("Кино") == true, "\(String(describing: artists))")
        let kino = (outcomes[3].result as? [[String: Any]])?.first
        #expect(kino?["title"] as? String == "Группа крови" && kino?["file"] as? String == "Music/Кино/Группа крови/01 Группа крови.flac")
        let queue = outcomes[6].result as? [[String: Any]]
        #expect(queue?.compactMap { $0["title"] as? String } == ["Open Sea", "Landfall"], "\(String(describing: queue))")
        let current = outcomes[8].result as? [String: Any]
        #expect(current?["artist"] as? String == "Aurora Trio" && current?["album"] as? String == "Long Ferry" && current?["title"] as? String == "Open Sea",
            "\(String(describing: current))")
        // Paused once it sounds (a pause while the song still loads is a separate matter: the
        // player's state machine does not take one yet).
        try #require(eventuallyBlocking(timeout: 15) { (try? client.status())?["tonearm_state"] == "playing" })
        let later = try PythonMPDClient.run(daemon.socket, [["pause", "1"], ["status"], ["stop"], ["outputs"], ["stats"]])
        try #require(later.count == 6, "\(later)")
        #expect(later.allSatisfy { $0.error == nil }, "\(later.compactMap(\.error))")
        #expect((later[2].result as? [String: Any])?["state"] as? String == "pause")
        #expect((later[4].result as? [[String: Any]])?.isEmpty == false)
        let stats = later[5].result as? [String: Any]
        #expect(Int(stats?["songs"] as? String ?? "") ?? 0 >= 8 && Int(stats?["artists"] as? String ?? "") ?? 0 >= 3, "\(String(describing: stats))")
    }
}
