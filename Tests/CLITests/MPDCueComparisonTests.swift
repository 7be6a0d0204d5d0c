import Foundation
import TestProcesses
import Testing

/// Cue sheets as mpd 0.23 shows them and as `tonearm serve` shows them, on the same folder made
/// here: ffmpeg's image of three tones (2 s, 3 s, 2.5 s at 44.1 kHz) with a `.cue` beside it.
/// mpd lists the sheet as a playlist and as a folder of `track0001`... with a `Range` each, hides
/// the image from listings, and answers `find`, `list`, `add` and `playlistinfo` with the tracks;
/// Tonearm must answer the same, value by value.
///
/// Set aside as in `MPDDatabaseComparisonTests`: Tonearm's `Music/` prefix, and the order of
/// songs where mpd's is its walk of the disk (`list file` too). The sheet's `REM COMMENT` is no
/// tag for either (mpd's default `metadata_to_use` leaves comments out).
@Suite("MPD's cue sheets: tonearm serve compared with mpd", .serialized, .blocking)
struct MPDCueComparisonTests {
    static let sheet = """
        REM GENRE "Ambient"
        REM DATE 2020
        REM DISCID 1A02B703
        REM COMMENT "made by a test"
        PERFORMER "Tone Band"
        TITLE "Three Tones"
        FILE "image.flac" WAVE
          TRACK 01 AUDIO
            TITLE "Low"
            INDEX 01 00:00:00
          TRACK 02 AUDIO
            TITLE "Middle"
            PERFORMER "Guest"
            INDEX 01 00:02:00
          TRACK 03 AUDIO
            TITLE "High"
            INDEX 00 00:04:70
            INDEX 01 00:05:00

        """

    static func makeMusic(in root: URL) throws {
        let tones = [(300, 2.0), (1_000, 3.0), (2_500, 2.5)]
        let inputs = tones.flatMap { ["-f", "lavfi", "-i", "sine=frequency=\($0.0):duration=\($0.1):sample_rate=44100"] }
        let image = try FFmpegFixture.make(inputs + ["-filter_complex", "[0][1][2]concat=n=3:v=0:a=1", "-c:a", "flac"], fileName: "image.flac").get()
        let album = root.appendingPathComponent("Album")
        try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
        try image.write(to: album.appendingPathComponent("image.flac"))
        // CRLF, as sheets written on Windows are.
        try Data(sheet.replacingOccurrences(of: "\n", with: "\r\n").utf8).write(to: album.appendingPathComponent("image.cue"))
        let loose = try FFmpegFixture.make(["-f", "lavfi", "-i", "sine=duration=1", "-metadata", "title=Loose", "-c:a", "flac"], fileName: "l.flac").get()
        try loose.write(to: root.appendingPathComponent("loose.flac"))
        // One date for the image, the sheet and their folder: which of them a track's
        // Last-Modified comes from is then not a matter of which second each was written in.
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        for url in [album.appendingPathComponent("image.flac"), album.appendingPathComponent("image.cue"), album] {
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: url.path)
        }
    }

    /// `%` is the music folder's prefix on the server under test.
    static let session: [(command: String, ordered: Bool)] = [
        ("lsinfo \"%Album\"", true), ("lsinfo \"%Album/image.cue\"", true), ("lsinfo \"%Album/image.cue/track0002\"", true),
        ("lsinfo \"%Album/image.flac\"", true), ("find \"(Title == 'Middle')\"", true), ("find \"(Album == 'Three Tones')\"", false),
        ("search \"(file contains 'image')\"", false), ("list Album", true), ("list AlbumArtist", true), ("list Artist", true),
        ("list Title \"(Album == 'Three Tones')\"", true), ("list file", false), ("count \"(Album == 'Three Tones')\"", true),
        ("find \"(Track == '03')\"", true), ("listall \"%Album/image.cue\"", true), ("listall \"%Album/image.cue/track0003\"", true),
        ("listallinfo \"%Album/image.cue\"", true), ("listall \"%\"", false), ("listall \"%Album\"", true),
        ("listallinfo \"%Album\"", true), ("lsinfo \"%Album/image.cue/track0009\"", true),
        // A sheet is a playlist too: its tracks are the image's URI with each one's Range.
        ("listplaylist \"%Album/image.cue\"", true), ("listplaylistinfo \"%Album/image.cue\"", true),
        ("listplaylist \"%Album/image.cue/track0001\"", true), ("listplaylist \"%Album/other.cue\"", true),
        // A track's comments are its image's; the sheet is no song.
        ("readcomments \"%Album/image.cue/track0002\"", true), ("readcomments \"%Album/image.cue\"", true),
    ]

    typealias Answer = (fields: [(key: String, value: String)], ack: String?)

    /// One answer made comparable: `Music/` taken off Tonearm's paths, each song's fields as a
    /// set, songs sorted when mpd's order is the disk's.
    static func normalised(_ answer: Answer, tonearm: Bool, ordered: Bool) -> [[String]] {
        var blocks: [[String]] = []
        for (key, rawValue) in answer.fields {
            var value = rawValue
            if tonearm, ["file", "directory", "playlist"].contains(key), value.hasPrefix("Music/") { value.removeFirst("Music/".count) }
            if ["file", "directory", "playlist"].contains(key) || blocks.isEmpty { blocks.append([]) }
            blocks[blocks.count - 1].append("\(key): \(value)")
        }
        blocks = blocks.map { $0.count > 1 && $0[0].hasPrefix("file: ") ? [$0[0]] + $0.dropFirst().sorted() : $0 }
        return ordered ? blocks : blocks.sorted { $0.joined() < $1.joined() }
    }

    @Test func cueTracksAreListedFoundAndQueuedAsMPDDoes() throws {
        let mpd = try MPDDaemonProcess { music in try Self.makeMusic(in: URL(fileURLWithPath: music)) }
        defer { mpd.stop() }
        let real = try mpd.updatedClient()
        let daemon = try ServeDaemon(music: URL(fileURLWithPath: mpd.musicDirectory))
        let ours = try daemon.client()
        try #require(
            try ours.command("listall Music/Album/image.cue").fields.filter { $0.key == "file" }.count == 3, "\(daemon.logTail)")

        try MPDSessionComparison.expectSameAnswers(Self.session, mpd: real, tonearm: ours) { Self.normalised($0, tonearm: $1, ordered: $2) }

        // `stats` counts the tracks, not their image, and their artists and albums, as mpd does.
        // Its playtime is each track's own length: mpd 0.23.12 adds the whole image's for each
        // track (23 s here for 7.5 s of tracks and a 1 s song), a figure of no use to anyone.
        let statKeys: Set<String> = ["songs", "artists", "albums"]
        let theirStats = try real.command("stats").fields.filter { statKeys.contains($0.key) }.map { "\($0.key): \($0.value)" }
        let myStats = try ours.command("stats").fields
        #expect(
            theirStats.sorted() == myStats.filter { statKeys.contains($0.key) }.map { "\($0.key): \($0.value)" }.sorted(),
            "stats\nmpd:     \(theirStats)\ntonearm: \(myStats)")
        #expect(myStats.first { $0.key == "db_playtime" }?.value == "8", "7.5 s of tracks and a 1 s song: \(myStats)")

        // Queued by path and by a filter, the queue tells the tracks as mpd's does.
        for (client, prefix) in [(real, ""), (ours, "Music/")] {
            #expect(try client.command("add \"\(prefix)Album/image.cue/track0002\"").ack == nil)
            #expect(try client.command("findadd \"(Title == 'High')\"").ack == nil)
            // Loaded as a playlist, whole and a range of it, at a position.
            #expect(try client.command("load \"\(prefix)Album/image.cue\"").ack == nil)
            #expect(try client.command("load \"\(prefix)Album/image.cue\" 2:3 1").ack == nil)
        }
        let theirs = Self.normalised(try real.command("playlistinfo"), tonearm: false, ordered: true)
        let mine = Self.normalised(try ours.command("playlistinfo"), tonearm: true, ordered: true)
        #expect(theirs.count == 6, "track 2, High, the sheet's three, its third at 1: \(theirs)")
        #expect(theirs == mine, "playlistinfo\nmpd:     \(theirs)\ntonearm: \(mine)")
    }

    @Test func aCueTrackPlaysWithItsOwnClockAndTheNextFollows() throws {
        let music = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-cue-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: music) }
        try Self.makeMusic(in: music)
        let daemon = try ServeDaemon(music: music)
        let client = try daemon.client()
        #expect(try client.command("add \"Music/Album/image.cue\"").ack == nil)
        // Started and paused in one command list: what follows is checked on a paused track, so
        // no step races its 3 s, however slow the machine is.
        try client.send(bytes: Array("command_list_begin\nplay 1\npause 1\ncommand_list_end\n".utf8))
        #expect(try client.answer().ack == nil, "\(daemon.logTail)")
        // Track 2 is 3 s of the image from 2 s on: its duration and elapsed time are its own.
        #expect(eventuallyBlocking(timeout: 20) { (try? client.status())?["state"] == "pause" }, "\(daemon.logTail)")
        let status = try client.status()
        #expect(status["song"] == "1" && status["duration"] == "3.000", "\(status)")
        #expect(Double(status["elapsed"] ?? "") ?? 99 < 3, "\(status)")
        // A seek is within the track: 2 s into it, not 2 s into the image.
        let seek = try client.command("seek 1 2")
        #expect(seek.ack == nil, "\(seek.ack ?? ""): \(daemon.logTail)")
        #expect(eventuallyBlocking(timeout: 10) {
            guard let status = try? client.status(), status["song"] == "1", let elapsed = Double(status["elapsed"] ?? "") else { return false }
            return abs(elapsed - 2) < 0.05
        }, "\(String(describing: try? client.status()))")
        #expect(try client.command("pause 0").ack == nil)
        // It ends after its own length and track 3 plays next.
        #expect(eventuallyBlocking(timeout: 20) {
            guard let status = try? client.status() else { return false }
            return status["song"] == "2" && status["duration"] == "2.500"
        }, "\(daemon.logTail)")
    }
    /// What the daemon's WAV output holds after it played `uri` to the end: the left channel.
    static func played(_ uri: String, music: URL) throws -> [Float] {
        let wav = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-cue-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        let daemon = try ServeDaemon(["--output", "wav-float:\(wav.path)"], music: music, replacingOutput: true)
        let client = try daemon.client()
        #expect(try client.command("add \"\(uri)\"").ack == nil)
        #expect(try client.command("play 0").ack == nil)
        #expect(eventuallyBlocking(timeout: 30) { (try? client.status())?["state"] == "stop" }, "\(daemon.logTail)")
        _ = daemon.stop()
        return try leftChannel(ofFloatWAV: Data(contentsOf: wav))
    }

    /// The left channel of a 32-bit float stereo WAV, to the end of the file (a daemon stopped by
    /// a signal may not have written the data chunk's size).
    static func leftChannel(ofFloatWAV data: Data) throws -> [Float] {
        let bytes = [UInt8](data)
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = Int(UInt32(bytes[offset + 4]) | UInt32(bytes[offset + 5]) << 8 | UInt32(bytes[offset + 6]) << 16 | UInt32(bytes[offset + 7]) << 24)
            if bytes[offset..<offset + 4].elementsEqual("data".utf8) {
                let body = bytes[(offset + 8)...]
                let frames = body.count / 8
                return (0..<frames).map { frame in
                    let at = body.startIndex + frame * 8
                    let bits = UInt32(body[at]) | UInt32(body[at + 1]) << 8 | UInt32(body[at + 2]) << 16 | UInt32(body[at + 3]) << 24
                    return Float(bitPattern: bits)
                }
            }
            offset += 8 + size
        }
        throw MPDLineClient.Failure(description: "no data chunk in the WAV output")
    }

    /// The whole sheet played track after track through the daemon's output is the image played
    /// alone: the same number of frames (each track ends on the sample before the next begins,
    /// none lost or doubled at a seam) and no step between two samples bigger than the tones'
    /// own (a seam that skipped or repeated audio would make one).
    @Test func theSheetPlayedThroughIsTheImageToTheSample() throws {
        let music = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-cue-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: music) }
        try Self.makeMusic(in: music)
        let image = try Self.played("Music/Album/image.flac", music: music)
        let sheet = try Self.played("Music/Album/image.cue", music: music)
        #expect(image.count > 7 * 48_000, "the image played: \(image.count) frames")
        #expect(sheet.count == image.count, "the sheet's three tracks: \(sheet.count) frames, the image: \(image.count)")
        // The highest tone (2.5 kHz at amplitude 1/8) moves at most 0.041 between two samples.
        let steps = zip(sheet.dropFirst(), sheet).map { abs($0 - $1) }
        #expect((steps.max() ?? 1) < 0.05, "a seam jumps by \(steps.max() ?? 1)")
    }
}
