import Foundation
import TestProcesses
import Testing

/// Cue sheets embedded in FLAC files as mpd 0.23.12 shows them and as `tonearm serve` shows them,
/// on the same folder made here (`EmbeddedCueFixture`, metaflac):
///
/// - `Tag/image.flac` holds the sheet as a `CUESHEET` comment. mpd lists the file as one song
///   followed by a playlist of its own path (`playlist: Tag/image.flac` in `lsinfo`, `listall`,
///   `listallinfo`, `find`), never as a folder; its tracks are no database songs (`find` does not
///   find them, `lsinfo` and `add` of `image.flac/track0001` fail) and come out of `listplaylist`,
///   `listplaylistinfo` and `load`, each the FLAC's URI with its `Range` and the sheet's tags
///   completed by the file's. Tonearm must answer the same, value by value.
/// - `Both/image.flac` holds a block and `TagBoth/image.flac` a comment, and a `.cue` beside
///   each names it: the `.cue` wins, the FLAC is hidden as an image and the tracks are listed
///   once. The `.cue`'s tracks are completed by the FLAC's tags, as mpd completes them.
/// - `Block/image.flac` holds a `CUESHEET` block: mpd 0.23.12's update does not see it (a plain
///   song, no playlist line); Tonearm shows it as it shows the comment (its tracks from each
///   `INDEX 01`), a deliberate difference, asserted on its own.
///
/// Set aside as in `MPDCueComparisonTests`: Tonearm's `Music/` prefix, and the order of songs
/// where mpd's is its walk of the disk. mpd's `.cue` tracks beside a FLAC that also has a
/// `CUESHEET` comment inherit the FLAC's "has a playlist" flag and print a `playlist:` line of
/// their own path, which names nothing; Tonearm does not copy that, so in `TagBoth` only what
/// prints no song is compared (`lsinfo` of the folder, `count`).
@Suite("MPD's embedded cue sheets: tonearm serve compared with mpd", .serialized, .blocking)
struct MPDEmbeddedCueComparisonTests {
    static func makeMusic(in root: URL) throws {
        for folder in ["Tag", "Block", "Both", "TagBoth"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try EmbeddedCueFixture.write(to: root.appendingPathComponent("Tag/image.flac"), title: "Whole Tag", form: .comment)
        try EmbeddedCueFixture.write(to: root.appendingPathComponent("Block/image.flac"), title: "Whole Block", form: .block)
        try EmbeddedCueFixture.write(to: root.appendingPathComponent("Both/image.flac"), title: "Whole Both", form: .block)
        try EmbeddedCueFixture.write(to: root.appendingPathComponent("TagBoth/image.flac"), title: "Whole TagBoth", form: .comment)
        for (folder, album) in [("Both", "Beside"), ("TagBoth", "Beside Tag")] {
            let beside = EmbeddedCueFixture.sheet.replacingOccurrences(of: "Three Tones", with: album)
            try Data(beside.utf8).write(to: root.appendingPathComponent("\(folder)/image.cue"))
        }
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let paths = ["Tag/image.flac", "Block/image.flac", "Both/image.flac", "Both/image.cue", "TagBoth/image.flac", "TagBoth/image.cue"]
        for path in paths + ["Tag", "Block", "Both", "TagBoth"] {
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: root.appendingPathComponent(path).path)
        }
    }

    /// `%` is the music folder's prefix on the server under test.
    static let session: [(command: String, ordered: Bool)] = [
        ("lsinfo \"%Tag\"", true), ("lsinfo \"%Tag/image.flac\"", true), ("listall \"%Tag\"", true), ("listallinfo \"%Tag\"", true),
        ("listall \"%Tag/image.flac\"", true), ("listallinfo \"%Tag/image.flac\"", true), ("lsinfo \"%Tag/image.flac/track0001\"", true),
        ("find \"(Title == 'Whole Tag')\"", true), ("search \"(file contains 'Tag/')\"", false),
        ("find \"(Album == 'Three Tones')\"", false), ("list Album", true), ("list Title", true), ("count \"(Album == 'Image Album')\"", true),
        ("listplaylist \"%Tag/image.flac\"", true), ("listplaylistinfo \"%Tag/image.flac\"", true),
        ("lsinfo \"%Both\"", true), ("listall \"%Both\"", true), ("find \"(Album == 'Beside')\"", false), ("lsinfo \"%Both/image.cue/track0003\"", true),
        ("lsinfo \"%Both/image.flac\"", true), ("lsinfo \"%TagBoth\"", true), ("count \"(Album == 'Beside Tag')\"", true),
        ("count \"(Title == 'Middle')\"", true),
    ]

    @Test func aFLACsCueSheetCommentIsAPlaylistOfTheSongAsInMPD() throws {
        let mpd = try MPDDaemonProcess { music in try Self.makeMusic(in: URL(fileURLWithPath: music)) }
        defer { mpd.stop() }
        let real = try mpd.updatedClient()
        let daemon = try ServeDaemon(music: URL(fileURLWithPath: mpd.musicDirectory))
        let ours = try daemon.client()
        try #require(
            eventuallyBlocking(timeout: 30) { (try? ours.command("listplaylist Music/Tag/image.flac").fields.count) == 3 }, "\(daemon.logTail)")

        try MPDSessionComparison.expectSameAnswers(Self.session, mpd: real, tonearm: ours) { MPDCueComparisonTests.normalised($0, tonearm: $1, ordered: $2) }

        // A track is no song of the database; the file and its sheet load as mpd loads them.
        for (client, prefix) in [(real, ""), (ours, "Music/")] {
            let ack = try client.command("add \"\(prefix)Tag/image.flac/track0002\"").ack
            #expect(ack?.hasPrefix("ACK [50@0]") == true, "\(prefix): \(ack ?? "OK")")
            #expect(try client.command("add \"\(prefix)Tag/image.flac\"").ack == nil)
            #expect(try client.command("load \"\(prefix)Tag/image.flac\"").ack == nil)
            #expect(try client.command("load \"\(prefix)Tag/image.flac\" 1:2").ack == nil)
        }
        let theirs = MPDCueComparisonTests.normalised(try real.command("playlistinfo"), tonearm: false, ordered: true)
        let mine = MPDCueComparisonTests.normalised(try ours.command("playlistinfo"), tonearm: true, ordered: true)
        #expect(theirs.count == 5, "the whole file, three tracks, track 2 again: \(theirs)")
        #expect(theirs == mine, "playlistinfo\nmpd:     \(theirs)\ntonearm: \(mine)")
    }

    /// The block's form: mpd 0.23.12 lists a plain song; Tonearm lists it as the comment's form,
    /// with the same tracks (the block's samples give the same `Range`s as the text's frames).
    @Test func aFLACsCueSheetBlockIsReadFromEachIndex01() throws {
        let mpd = try MPDDaemonProcess { music in try Self.makeMusic(in: URL(fileURLWithPath: music)) }
        defer { mpd.stop() }
        let real = try mpd.updatedClient()
        let daemon = try ServeDaemon(music: URL(fileURLWithPath: mpd.musicDirectory))
        let ours = try daemon.client()
        try #require(
            eventuallyBlocking(timeout: 30) { (try? ours.command("listplaylist Music/Block/image.flac").fields.count) == 3 }, "\(daemon.logTail)")

        let theirs = try real.command("lsinfo Block").fields
        #expect(theirs.filter { $0.key == "file" }.map(\.value) == ["Block/image.flac"])
        #expect(!theirs.contains { $0.key == "playlist" }, "mpd 0.23.12 does not see the block: \(theirs)")

        let listing = try ours.command("lsinfo Music/Block").fields
        #expect(listing.filter { ["file", "playlist"].contains($0.key) }.map(\.value) == ["Music/Block/image.flac", "Music/Block/image.flac"])
        let tracks = try ours.command("listplaylistinfo Music/Block/image.flac").fields
        #expect(tracks.filter { $0.key == "Range" }.map(\.value) == ["0.000-2.000", "2.000-5.000", "5.000-"], "\(tracks)")
        #expect(tracks.filter { $0.key == "Track" }.map(\.value) == ["01", "02", "03"])
        #expect(tracks.filter { $0.key == "Title" }.map(\.value) == ["Whole Block", "Whole Block", "Whole Block"], "the file's own title completes")
        #expect(tracks.filter { $0.key == "duration" }.map(\.value) == ["2.000", "3.000", "2.500"])
    }

    /// What the daemon's WAV output holds after it played `commands`' queue to the end.
    static func played(_ commands: [String], music: URL) throws -> [Float] {
        let wav = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-embcue-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        let daemon = try ServeDaemon(["--output", "wav-float:\(wav.path)"], music: music, replacingOutput: true)
        let client = try daemon.client()
        for command in commands { #expect(try client.command(command).ack == nil, "\(command): \(daemon.logTail)") }
        #expect(try client.command("play 0").ack == nil)
        #expect(eventuallyBlocking(timeout: 30) { (try? client.status())?["state"] == "stop" }, "\(daemon.logTail)")
        _ = daemon.stop()
        return try MPDCueComparisonTests.leftChannel(ofFloatWAV: Data(contentsOf: wav))
    }

    /// Each form's three tracks played one after another are the file played alone, to the
    /// sample: as many frames, and no step at a seam bigger than the tones' own (a track that
    /// started at its pregap, `INDEX 00`, would repeat 1/75 s of the second tone).
    @Test(arguments: ["Tag", "Block"])
    func theTracksPlayedThroughAreTheFileToTheSample(folder: String) throws {
        let music = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-embcue-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: music) }
        try Self.makeMusic(in: music)
        let whole = try Self.played(["add \"Music/\(folder)/image.flac\""], music: music)
        let tracks = try Self.played(["load \"Music/\(folder)/image.flac\""], music: music)
        #expect(whole.count > 7 * 48_000, "the file played: \(whole.count) frames")
        #expect(tracks.count == whole.count, "the three tracks: \(tracks.count) frames, the file: \(whole.count)")
        let steps = zip(tracks.dropFirst(), tracks).map { abs($0 - $1) }
        #expect((steps.max() ?? 1) < 0.05, "a seam jumps by \(steps.max() ?? 1)")
    }
}
