import Foundation
import TestProcesses
import Testing

/// Stickers, `searchaddpl` and `listfiles` as mpd 0.23 answers them (with a `sticker_file`) and as
/// `tonearm serve` answers them, on the same music folder made here by ffmpeg (songs in nested
/// folders, a Cyrillic one, a file that is not a song, an empty folder): the same commands in the
/// same order to both, compared value by value, errors by their code; then `mpc sticker` against
/// both, `idle sticker`, and stickers kept through a rescan.
///
/// What differs on purpose: Tonearm's music is under the catalog's `Music/` folder (`%` in a
/// command is `Music/` for Tonearm, nothing for mpd, and `Music/` is taken off Tonearm's `file`
/// values); `listfiles` lists a folder in the disk's order in mpd and sorted in Tonearm, so its
/// entries are compared as a set.
@Suite("MPD stickers, searchaddpl and listfiles: tonearm serve compared with mpd", .serialized, .blocking)
struct MPDStickerComparisonTests {
    static let songs: [(path: String, tags: [(String, String)])] = [
        ("A/one.flac", [("title", "One"), ("artist", "X")]),
        ("A/B/two.flac", [("title", "Two"), ("artist", "Y")]),
        ("three.flac", [("title", "Three")]),
        ("Кино/песня.flac", [("title", "Песня"), ("artist", "Кино")]),
    ]

    static func makeMusic(in root: URL) throws {
        for song in songs {
            let arguments = ["-f", "lavfi", "-i", "sine=frequency=440:duration=1"] + song.tags.flatMap { ["-metadata", "\($0.0)=\($0.1)"] } + ["-c:a", "flac"]
            let data = try FFmpegFixture.make(arguments, fileName: "song.flac").get()
            let url = root.appendingPathComponent(song.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        try Data("liner notes\n".utf8).write(to: root.appendingPathComponent("A/notes.txt"))
        try FileManager.default.createDirectory(at: root.appendingPathComponent("A/empty"), withIntermediateDirectories: true)
    }

    /// The session, in order (each command's effect is seen by the ones after it). `ordered`:
    /// mpd's order is a rule (sorted by URI, by name, or the playlist's), compared as is.
    static let session: [(command: String, ordered: Bool)] = [
        ("sticker get song \"%A/one.flac\" rating", true),
        ("sticker set song \"%A/one.flac\" rating 5", true), ("sticker set song \"%A/one.flac\" played 12", true),
        ("sticker set song \"%A/B/two.flac\" rating 3", true), ("sticker set song \"%three.flac\" rating 10", true),
        ("sticker set song \"%Кино/песня.flac\" rating 7", true), ("sticker set song \"%A/one.flac\" rating 4", true),
        ("sticker get song \"%A/one.flac\" rating", true), ("sticker list song \"%A/one.flac\"", true),
        ("sticker set song \"%A/one.flac\" \"a=b c\" \"two words\"", true), ("sticker set song \"%A/one.flac\" empty \"\"", true),
        ("sticker get song \"%A/one.flac\" empty", true), ("sticker set song \"%A/one.flac\" \"\" nameless", true),
        ("sticker list song \"%A/one.flac\"", true),
        ("sticker find song \"\" rating", true), ("sticker find song \"%A\" rating", true), ("sticker find song \"%Кино\" rating", true),
        ("sticker find song \"%A/one.flac\" rating", true), ("sticker find song \"%A/\" rating", true),
        ("sticker find song \"\" rating = 4", true), ("sticker find song \"\" rating < 5", true), ("sticker find song \"\" rating > 3", true),
        ("sticker find song \"%A\" rating > 3", true), ("sticker find song \"\" empty = \"\"", true), ("sticker find song \"\" \"a=b c\"", true),
        ("sticker find song \"\" rating ~ 3", true), ("sticker find song \"\" nosuch", true), ("sticker find song \"%nothere\" rating", true),
        ("sticker get song \"%nothere.flac\" rating", true), ("sticker set song \"%A/notes.txt\" rating 1", true),
        ("sticker set song \"%A\" rating 1", true), ("sticker list song \"%nothere.flac\"", true), ("sticker delete song \"%nothere.flac\"", true),
        ("sticker set song \"%../three.flac\" rating 1", true),
        ("sticker delete song \"%A/one.flac\" nosuch", true), ("sticker delete song \"%A/one.flac\" played", true),
        ("sticker get song \"%A/one.flac\" played", true), ("sticker delete song \"%A/B/two.flac\"", true),
        ("sticker list song \"%A/B/two.flac\"", true), ("sticker delete song \"%A/B/two.flac\"", true),
        ("sticker get playlist x y", true), ("sticker bogus song \"%A/one.flac\"", true), ("sticker set song \"%A/one.flac\"", true),
        ("sticker get song", true), ("sticker find song \"\" rating = 5 extra", true), ("sticker list song \"%A/one.flac\" extra", true),
        ("searchaddpl pl1 \"(Artist == 'X')\"", true), ("listplaylist pl1", true),
        ("searchaddpl pl1 \"(Title =~ 't')\" sort Title", true), ("listplaylist pl1", true),
        ("searchaddpl pl1 \"(Title =~ 't')\" sort -Title window 0:1", true), ("listplaylist pl1", true),
        ("searchaddpl pl2 artist кино", true), ("listplaylist pl2", true),
        ("searchaddpl none \"(Artist == 'nobody')\"", true), ("listplaylist none", true),
        ("searchaddpl \"bad/name\" \"(Artist == 'X')\"", true), ("searchaddpl pl3 \"(Artist == \"", true), ("searchaddpl pl3", true),
        ("listfiles \"%A\"", false), ("listfiles \"%A/B\"", false), ("listfiles \"%Кино\"", false), ("listfiles \"%A/empty\"", true),
        ("listfiles \"%A/one.flac\"", true), ("listfiles \"%A/notes.txt\"", true), ("listfiles \"%nothere\"", true),
    ]

    typealias Answer = (fields: [(key: String, value: String)], ack: String?)

    /// An answer as blocks (one per `file`/`directory`), Tonearm's `Music/` prefix taken off.
    static func normalised(_ answer: Answer, tonearm: Bool, ordered: Bool) -> [[String]] {
        var blocks: [[String]] = []
        for (key, rawValue) in answer.fields {
            var value = rawValue
            if tonearm, key == "file" || key == "directory", value.hasPrefix("Music/") { value.removeFirst("Music/".count) }
            if key == "file" || key == "directory" || blocks.isEmpty { blocks.append([]) }
            blocks[blocks.count - 1].append("\(key): \(value)")
        }
        return ordered ? blocks : blocks.sorted { $0.joined() < $1.joined() }
    }

    /// mpd with a sticker database, indexed, and `tonearm serve` on the same music directory.
    static func servers() throws -> (mpd: MPDDaemonProcess, real: MPDLineClient, daemon: ServeDaemon) {
        let mpd = try MPDDaemonProcess { music in
            try Self.makeMusic(in: URL(fileURLWithPath: music))
        }
        let real = try mpd.updatedClient()
        let daemon = try ServeDaemon(music: URL(fileURLWithPath: mpd.musicDirectory))
        return (mpd, real, daemon)
    }

    @Test func everyAnswerIsMPDs() throws {
        let (mpd, real, daemon) = try Self.servers()
        defer { mpd.stop() }
        let ours = try daemon.client()
        try #require((try ours.command("listall Music").fields.filter { $0.key == "file" }.count) == Self.songs.count, "\(daemon.logTail)")

        // The ACK's text too where Tonearm's is mpd's.
        try MPDSessionComparison.expectSameAnswers(
            Self.session, mpd: real, tonearm: ours, wholeAck: { $0.hasPrefix("sticker") || $0.hasPrefix("searchaddpl") }
        ) { Self.normalised($0, tonearm: $1, ordered: $2) }
        // The non-song file is listed with its size, as mpd lists it.
        #expect(try ours.command("listfiles Music/A").fields.contains { $0.key == "file" && $0.value == "notes.txt" })
    }

    @Test func mpcStickerAnswersAsAgainstMPD() throws {
        let (mpd, _, daemon) = try Self.servers()
        defer { mpd.stop() }
        let steps: [[String]] = [
            ["%A/one.flac", "set", "rating", "5"], ["%A/one.flac", "set", "mood", "calm evening"], ["%A/B/two.flac", "set", "rating", "2"],
            ["%A/one.flac", "get", "rating"], ["%A/one.flac", "list"], ["%A", "find", "rating"], ["%Кино/песня.flac", "set", "rating", "9"],
            ["%Кино", "find", "rating"], ["%A/one.flac", "delete", "mood"], ["%A/one.flac", "get", "mood"], ["%A/one.flac", "list"],
            ["%nothere.flac", "get", "rating"], ["%A/one.flac", "delete", "mood"],
        ]
        for step in steps {
            let theirs = try ServeDaemon.mpc(host: "127.0.0.1", port: mpd.port, ["sticker"] + step.map { $0.replacingOccurrences(of: "%", with: "") })
            let mine = try ServeDaemon.mpc(host: daemon.socket, ["sticker"] + step.map { $0.replacingOccurrences(of: "%", with: "Music/") })
            #expect(mine.status == theirs.status, "mpc sticker \(step): mpd \(theirs), tonearm \(mine)")
            #expect(mine.out.replacingOccurrences(of: "Music/", with: "") == theirs.out, "mpc sticker \(step)\nmpd:     \(theirs.out)\ntonearm: \(mine.out)")
        }
    }

    @Test func idleFiresOnStickerAndPlaylistChangesAndStickersOutliveARescan() throws {
        let (mpd, real, daemon) = try Self.servers()
        defer { mpd.stop() }
        let ours = try daemon.client()
        for (client, idler, prefix) in [(real, try MPDLineClient("127.0.0.1:\(mpd.port)"), ""), (ours, try daemon.client(), "Music/")] {
            try idler.send("idle sticker")
            #expect(try client.command("sticker set song \"\(prefix)three.flac\" rating 8").ack == nil)
            #expect(try idler.answer().fields.map(\.value) == ["sticker"], "\(prefix.isEmpty ? "mpd" : "tonearm")")
            try idler.send("idle sticker")
            #expect(try client.command("sticker delete song \"\(prefix)three.flac\" rating").ack == nil)
            #expect(try idler.answer().fields.map(\.value) == ["sticker"], "\(prefix.isEmpty ? "mpd" : "tonearm")")
        }
        // searchaddpl writes a stored playlist: `idle stored_playlist` fires.
        let playlistIdler = try daemon.client()
        try playlistIdler.send("idle stored_playlist")
        #expect(try ours.command("searchaddpl kept \"(Artist == 'Y')\"").ack == nil)
        #expect(try playlistIdler.answer().fields.map(\.value) == ["stored_playlist"])
        // A rescan reads every file again; the sticker stays on its song.
        #expect(try ours.command("sticker set song \"Music/A/one.flac\" rating 5").ack == nil)
        #expect(try ours.command("rescan").ack == nil)
        #expect(eventuallyBlocking(timeout: 30) { (try? ours.status())?["updating_db"] == nil })
        #expect(try ours.value("sticker get song \"Music/A/one.flac\" rating", "sticker") == "rating=5")
        // Above the bounds: refused with an argument error, nothing kept.
        // One byte longer than the longest value kept (StickerLimits.maxValueBytes).
        let long = String(repeating: "v", count: 4_097)
        #expect(try ours.command("sticker set song \"Music/A/one.flac\" rating \(long)").ack?.hasPrefix("ACK [2@0] {sticker}") == true)
        #expect(try ours.value("sticker get song \"Music/A/one.flac\" rating", "sticker") == "rating=5")
    }

    /// A song that leaves the folder: neither server finds it or its sticker. When it comes back,
    /// mpd 0.23.12 has deleted its stickers with it; Tonearm kept them (on purpose, see
    /// `StickerSchema`), so its rating is there again.
    @Test func aSongThatLeavesIsNotFoundAndItsStickerComesBackWithIt() throws {
        let (mpd, real, daemon) = try Self.servers()
        defer { mpd.stop() }
        let ours = try daemon.client()
        for (client, prefix) in [(real, ""), (ours, "Music/")] {
            #expect(try client.command("sticker set song \"\(prefix)three.flac\" rating 8").ack == nil)
            #expect(try client.command("sticker set song \"\(prefix)A/one.flac\" rating 2").ack == nil)
        }
        let music = URL(fileURLWithPath: mpd.musicDirectory)
        let aside = URL(fileURLWithPath: mpd.directory).appendingPathComponent("three.flac")
        try FileManager.default.moveItem(at: music.appendingPathComponent("three.flac"), to: aside)
        let realAfter = try mpd.updatedClient()
        #expect(eventuallyBlocking(timeout: 30) { (try? ours.command("find \"(Title == 'Three')\"").fields.isEmpty) == true }, "\(daemon.logTail)")
        for command in ["sticker find song \"\" rating", "sticker get song \"%three.flac\" rating"] {
            let theirs = try realAfter.command(command.replacingOccurrences(of: "%", with: ""))
            let mine = try ours.command(command.replacingOccurrences(of: "%", with: "Music/"))
            #expect(mine.ack == theirs.ack, "\(command): mpd \(theirs.ack ?? "OK"), tonearm \(mine.ack ?? "OK")")
            #expect(Self.normalised(mine, tonearm: true, ordered: true) == Self.normalised(theirs, tonearm: false, ordered: true), "\(command)")
        }
        try FileManager.default.moveItem(at: aside, to: music.appendingPathComponent("three.flac"))
        let realBack = try mpd.updatedClient()
        #expect(eventuallyBlocking(timeout: 30) { (try? ours.command("find \"(Title == 'Three')\"").fields.filter { $0.key == "file" }.count) == 1 }, "\(daemon.logTail)")
        #expect(try realBack.command("sticker get song three.flac rating").ack == "ACK [50@0] {sticker} no such sticker")
        #expect(try ours.value("sticker get song \"Music/three.flac\" rating", "sticker") == "rating=8")
    }
}
