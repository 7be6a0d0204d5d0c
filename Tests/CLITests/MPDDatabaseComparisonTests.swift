import Foundation
import TestProcesses
import Testing

/// The music database as mpd 0.23 answers it and as `tonearm serve` answers it, on the same
/// tagged folder made here by ffmpeg (two artists, three albums, a Cyrillic one, a loose file, a
/// file that is not audio): `list` grouped and filtered, `find`, `search`, `count`, `listall`,
/// `listallinfo`, `lsinfo`, compared value by value.
///
/// What differs on purpose, and how it is set aside (docs/MPD.md lists the same):
/// - Tonearm's music is under the catalog's `Music/` folder, beside stations, podcasts and
///   sessions: `%` in a command is `Music/` for Tonearm, nothing for mpd, and `Music/` is taken
///   off Tonearm's `file` and `directory` values before comparing.
/// - The order of songs within one folder: mpd keeps the order its scan met them (the disk's),
///   Tonearm sorts by name; answers are compared as sets of songs where mpd's order is the disk's.
/// - `Format` of MP3s: mpd's libmad decodes to 24 bits, FFmpeg (Tonearm's decoder) to floating
///   point; `duration` of MP3s: mpd counts the LAME frames, FFmpeg estimates from the header.
///   Both are checked for FLAC and Ogg, where the decoders agree.
@Suite("MPD's database: tonearm serve compared with mpd", .serialized, .blocking)
struct MPDDatabaseComparisonTests {
    /// One tagged file: its path, the ffmpeg arguments that make it, its tags.
    struct Song {
        var path: String
        var seconds: Int
        var tags: [(String, String)]
        var codec: [String]
    }

    static let songs: [Song] = [
        Song(path: "Aurora Trio/Night Ferry/01 Harbour.mp3", seconds: 1, tags: [
            ("title", "Harbour"), ("artist", "Aurora Trio"), ("album", "Night Ferry"), ("track", "1"), ("date", "2019"), ("genre", "Jazz"),
        ], codec: ["-c:a", "libmp3lame", "-b:a", "64k"]),
        Song(path: "Aurora Trio/Night Ferry/02 Lanterns.mp3", seconds: 1, tags: [
            ("title", "Lanterns"), ("artist", "Aurora Trio"), ("album", "Night Ferry"), ("track", "2"), ("date", "2019"), ("genre", "Jazz"),
        ], codec: ["-c:a", "libmp3lame", "-b:a", "64k"]),
        Song(path: "Aurora Trio/Day Ferry/01 Dawn.flac", seconds: 2, tags: [
            ("title", "Dawn"), ("artist", "Aurora Trio feat. Mira"), ("album_artist", "Aurora Trio"), ("album", "Day Ferry"), ("track", "1"),
            ("date", "2021"), ("genre", "Jazz"), ("composer", "Mira Holm"),
        ], codec: ["-c:a", "flac"]),
        Song(path: "Кино/Группа крови/01 Группа крови.flac", seconds: 2, tags: [
            ("title", "Группа крови"), ("artist", "Кино"), ("album", "Группа крови"), ("track", "1"), ("date", "1988"), ("genre", "Rock"),
        ], codec: ["-c:a", "flac"]),
        Song(path: "loose.ogg", seconds: 1, tags: [("title", "Loose")], codec: ["-c:a", "libvorbis"]),
    ]

    static func makeMusic(in root: URL) throws {
        for song in songs {
            let arguments = ["-f", "lavfi", "-i", "sine=frequency=330:duration=\(song.seconds)"] + song.tags.flatMap { ["-metadata", "\($0.0)=\($0.1)"] } + song.codec
            let data = try FFmpegFixture.make(arguments, fileName: "song." + (song.path as NSString).pathExtension).get()
            let url = root.appendingPathComponent(song.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        try Data("this is not audio".utf8).write(to: root.appendingPathComponent("broken.mp3"))
    }

    /// The commands; `%` is the music folder's prefix on the server under test. `ordered` says
    /// whether mpd's order is its own (sorted) and compared as is.
    static let session: [(command: String, ordered: Bool)] = [
        ("list Artist", true), ("list Album", true), ("list AlbumArtist", true), ("list Album group AlbumArtist", true),
        ("list Album \"(Artist == 'Кино')\"", true), ("list Title \"(Album == 'Night Ferry')\"", true), ("list Date", true),
        ("list Genre group Artist group Album", true), ("list Album Кино", true), ("list Composer", true),
        ("find \"(Artist == 'Aurora Trio')\"", false), ("find Artist \"aurora trio\"", false), ("search Artist \"aurora trio\"", false),
        ("search \"(any contains 'КРОВИ')\"", false), ("find \"(Album == 'Night Ferry')\" sort Title", true),
        ("find \"(Album == 'Night Ferry')\" sort -Title window 0:1", true), ("find \"(base '%Aurora Trio')\"", false),
        ("find \"(Genre != 'Jazz')\"", false), ("find \"(!(Genre == 'Jazz'))\"", false),
        ("find \"((Genre == 'Jazz') AND (Date == '2021'))\"", false), ("search \"(Title =~ '^[hd]')\"", false),
        ("count \"(Genre == 'Jazz')\"", true), ("count group Genre", true), ("count Artist Кино", true),
        ("listall \"%\"", false), ("listall \"%Aurora Trio\"", false), ("listallinfo \"%Кино\"", false),
        ("listallinfo \"%loose.ogg\"", false), ("listall \"%Aurora Trio/Night Ferry/01 Harbour.mp3\"", false),
        ("lsinfo \"%Aurora Trio/Day Ferry\"", false), ("lsinfo \"%Кино/Группа крови\"", false),
        ("list Nonsense", true), ("find \"(Artist == \"", true), ("lsinfo \"%No Such Folder\"", true),
    ]

    typealias Answer = (fields: [(key: String, value: String)], ack: String?)

    /// One answer made comparable: Tonearm's `Music/` prefix taken off, fields set aside as the
    /// suite's header says, songs sorted when `ordered` is false.
    static func normalised(_ answer: Answer, tonearm: Bool, ordered: Bool) -> [[String]] {
        var blocks: [[String]] = []
        var lossy = false
        for (key, rawValue) in answer.fields {
            var value = rawValue
            if tonearm, key == "file" || key == "directory", value.hasPrefix("Music/") { value.removeFirst("Music/".count) }
            if key == "file" || key == "directory" || blocks.isEmpty {
                blocks.append([])
                lossy = key == "file" && value.hasSuffix(".mp3")
            }
            if lossy, key == "Format" || key == "duration" { continue }
            if key == "playtime" { continue }
            blocks[blocks.count - 1].append("\(key): \(value)")
        }
        // A song's fields as a set: mpd tells tags in the order the file has them.
        blocks = blocks.map { $0.count > 1 && $0[0].hasPrefix("file: ") ? [$0[0]] + $0.dropFirst().sorted() : $0 }
        if !ordered {
            // Songs as a set: mpd's order is the disk's.
            blocks = blocks.sorted { $0.joined() < $1.joined() }
        }
        return blocks
    }

    /// mpd and `tonearm serve` on the same folder (`makeMusic`), each with its database read;
    /// the caller stops mpd.
    static func bothServers() throws -> (mpd: MPDDaemonProcess, daemon: ServeDaemon, real: MPDLineClient, ours: MPDLineClient) {
        let mpd = try MPDDaemonProcess { music in try Self.makeMusic(in: URL(fileURLWithPath: music)) }
        let real = try mpd.updatedClient()
        let daemon = try ServeDaemon(music: URL(fileURLWithPath: mpd.musicDirectory))
        let ours = try daemon.client()
        // The daemon indexed its music directory when it started.
        let files = try ours.command("listall Music").fields.filter { $0.key == "file" }.count
        guard files == 5 else {
            mpd.stop()
            throw MPDLineClient.Failure(description: "tonearm serve indexed \(files) songs, not 5: \(daemon.logTail)")
        }
        return (mpd, daemon, real, ours)
    }

    @Test func everyDatabaseAnswerIsMPDs() throws {
        let (mpd, daemon, real, ours) = try Self.bothServers()
        // Both stopped at the end, not before: the daemon lives until then.
        defer { mpd.stop(); daemon.stop() }

        try MPDSessionComparison.expectSameAnswers(Self.session, mpd: real, tonearm: ours) { Self.normalised($0, tonearm: $1, ordered: $2) }
        // The playtime of a count, whole seconds of summed durations: within a second of mpd's
        // (MP3 lengths differ by milliseconds between the decoders).
        for command in ["count \"(Genre == 'Jazz')\"", "count group Genre"] {
            let theirs = try real.command(command).fields.filter { $0.key == "playtime" }.compactMap { Int($0.value) }
            let mine = try ours.command(command).fields.filter { $0.key == "playtime" }.compactMap { Int($0.value) }
            #expect(theirs.count == mine.count && zip(theirs, mine).allSatisfy { abs($0 - $1) <= 1 }, "\(command): mpd \(theirs), tonearm \(mine)")
        }
    }

    /// `playlistfind` and `playlistsearch` over a queue of every song, added in the same order to
    /// both servers: filter expressions and the old `TAG VALUE` form, exact and folded, `any`,
    /// the album artist's fallback to the artist, and the errors.
    static let queueSession: [(command: String, ordered: Bool)] = [
        ("playlistfind \"(Artist == 'Aurora Trio')\"", true), ("playlistfind Artist \"aurora trio\"", true),
        ("playlistsearch Artist \"aurora trio\"", true), ("playlistsearch \"(any contains 'КРОВИ')\"", true),
        ("playlistfind \"(AlbumArtist == 'Aurora Trio')\"", true), ("playlistsearch title har", true),
        ("playlistfind \"(Genre != 'Jazz')\"", true), ("playlistsearch \"(Title =~ '^[hd]')\"", true),
        ("playlistfind \"(Date == '1999')\"", true), ("playlistfind \"(Title == \"", true), ("playlistfind Nonsense x", true),
    ]

    @Test func theQueueIsSearchedAsMPDSearchesIt() throws {
        let (mpd, daemon, real, ours) = try Self.bothServers()
        // Both stopped at the end, not before: the daemon lives until then.
        defer { mpd.stop(); daemon.stop() }
        for (client, prefix) in [(real, ""), (ours, "Music/")] {
            for song in Self.songs { #expect(try client.command("add \"\(prefix)\(song.path)\"").ack == nil, "\(song.path)") }
        }
        let found = try ours.command("playlistsearch Artist \"aurora trio\"").fields.filter { $0.key == "file" }
        #expect(found.count == 3, "the trio's three songs: \(found)")
        try MPDSessionComparison.expectSameAnswers(Self.queueSession, mpd: real, tonearm: ours) { Self.normalised($0, tonearm: $1, ordered: $2) }
    }

    /// `readcomments`: a file's raw pairs. mpd reads them with its own decoders, Tonearm with
    /// FFmpeg: for Ogg Vorbis both list the stream's comments and must agree line by line; for
    /// FLAC and MP3 the names may differ (FFmpeg calls a `DESCRIPTION` comment `comment`, and
    /// lists an MP3's ID3 frames where mpd lists only `TXXX` and `COMM`), so what Tonearm tells
    /// is checked against the tags the file was made with. Errors are mpd's.
    @Test func readcommentsTellsAFilesPairs() throws {
        let (mpd, daemon, real, ours) = try Self.bothServers()
        // Both stopped at the end, not before: the daemon lives until then.
        defer { mpd.stop(); daemon.stop() }
        func pairs(_ answer: Answer) -> [String] { answer.fields.map { "\($0.key): \($0.value)" } }

        let theirs = pairs(try real.command("readcomments loose.ogg"))
        let mine = pairs(try ours.command("readcomments Music/loose.ogg"))
        #expect(theirs.contains("title: Loose") && theirs == mine, "mpd \(theirs)\ntonearm \(mine)")
        for song in Self.songs {
            let answer = try ours.command("readcomments \"Music/\(song.path)\"")
            #expect(answer.ack == nil, "\(song.path): \(answer.ack ?? "")")
            let told = Set(pairs(answer))
            for (key, value) in song.tags where ["title", "artist", "album", "genre"].contains(key) {
                #expect(told.contains("\(key): \(value)"), "\(song.path): \(key) in \(told)")
            }
        }
        for uri in ["broken.mp3", "Aurora Trio", "nothing.flac", "../x.flac", "", "/etc/passwd"] {
            let theirAck = try real.command("readcomments \"\(uri)\"").ack
            let myAck = try ours.command("readcomments \"\(uri.hasPrefix("/") ? uri : "Music/" + uri)\"").ack
            #expect(theirAck != nil && theirAck == myAck, "\(uri): mpd \(theirAck ?? "OK"), tonearm \(myAck ?? "OK")")
        }
    }

    @Test func aSongCopiedInIsIndexedAndIdleDatabaseFires() throws {
        let music = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-music-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: music) }
        try Self.makeMusic(in: music)
        let daemon = try ServeDaemon(music: music)
        let client = try daemon.client()
        try #require((try client.command("list Title").fields.count) == 5)
        let idle = try daemon.client()
        try idle.send("idle database")
        // A new album copied in: the watch sees it, the index reads it, clients are told.
        let staging = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-staging-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: staging) }
        let data = try FFmpegFixture.make(
            ["-f", "lavfi", "-i", "sine=duration=1", "-metadata", "title=Новая", "-metadata", "artist=Мира", "-c:a", "flac"], fileName: "new.flac"
        ).get()
        try data.write(to: staging.appendingPathComponent("01 Новая.flac"))
        try FileManager.default.moveItem(at: staging, to: music.appendingPathComponent("Мира"))
        let told = try idle.answer()
        #expect(told.fields.map(\.value) == ["database"], "\(told)")
        #expect(try client.command("list Artist").fields.map(\.value).contains("Мира"))
        #expect(try client.command("find \"(Title == 'Новая')\"").fields.first?.value == "Music/Мира/01 Новая.flac")

        // A song removed leaves the index; `update` answers a job id and `idle update` fires.
        try FileManager.default.removeItem(at: music.appendingPathComponent("loose.ogg"))
        #expect(eventuallyBlocking(timeout: 30) { (try? client.command("find \"(Title == 'Loose')\"").fields.isEmpty) == true })
        try idle.send("idle update")
        let job = try client.command("update")
        #expect(job.ack == nil && Int(job.fields.first { $0.key == "updating_db" }?.value ?? "") != nil)
        #expect(try idle.answer().fields.map(\.value) == ["update"])
    }
}
