import Foundation
import PlayerCore
import Testing

/// A FLAC's `CUESHEET` block read by hand (RFC 9639 section 8.7) and both embedded forms made
/// songs: tracks start at `INDEX 01`, the lead-out and data tracks are no songs, and hostile input
/// (cut short, too many tracks, zero tracks, a track past the end, random bytes) is a typed error,
/// never a crash.
@Suite("Embedded cue sheets: the CUESHEET block and comment as songs")
struct EmbeddedCueSheetTests {
    struct BlockTrack {
        var offset: UInt64
        var number: UInt8
        var audio = true
        var points: [(offset: UInt64, number: UInt8)] = [(0, 1)]
    }

    /// A block's body as metaflac writes it.
    static func body(_ tracks: [BlockTrack], isCD: Bool = true, count: Int? = nil) -> Data {
        var bytes = [UInt8](repeating: 0, count: 128) + be64(88_200) + [isCD ? 0x80 : 0] + [UInt8](repeating: 0, count: 258)
        bytes.append(UInt8(count ?? tracks.count))
        for track in tracks {
            bytes += be64(track.offset) + [track.number] + [UInt8](repeating: 0, count: 12) + [track.audio ? 0 : 0x80]
            bytes += [UInt8](repeating: 0, count: 13) + [UInt8(track.points.count)]
            for point in track.points { bytes += be64(point.offset) + [point.number, 0, 0, 0] }
        }
        return Data(bytes)
    }

    static func be64(_ value: UInt64) -> [UInt8] { (0..<8).reversed().map { UInt8(value >> (8 * UInt64($0)) & 0xFF) } }

    /// The fixture's sheet as metaflac imports it: track 3 has a pregap from 4.933 s (its offset)
    /// and starts at 5 s (`INDEX 01`, 2,940 samples on).
    static let threeTracks = [
        BlockTrack(offset: 0, number: 1), BlockTrack(offset: 88_200, number: 2),
        BlockTrack(offset: 217_560, number: 3, points: [(0, 0), (2_940, 1)]), BlockTrack(offset: 330_750, number: 170, points: []),
    ]

    static var image: SongTags {
        var tags = SongTags(values: [.title: ["Whole"], .artist: ["Image Artist"], .album: ["Image Album"]])
        tags.audio.sampleRate = 44_100
        tags.audio.duration = 7.5
        return tags
    }

    static func code(_ body: () throws(PlaybackError) -> Any) -> PlaybackError.Code? {
        do throws(PlaybackError) {
            _ = try body()
            return nil
        } catch { return error.code }
    }

    @Test func aBlocksTracksStartAtTheirIndex01AndTheLeadOutIsNoSong() throws {
        let block = try FLACCueSheetBlock.parse(Self.body(Self.threeTracks))
        #expect(block.isCD && block.tracks.count == 4)
        #expect(block.tracks.map(\.start) == [0, 88_200, 220_500, nil], "the lead-out has no index point")
        let songs = try EmbeddedCueSheet.songs(block: block, image: "a/image.flac", imageTags: Self.image)
        #expect(songs.map(\.part) == [
            SongPart(image: "a/image.flac", startFrame: 0, endFrame: 150), SongPart(image: "a/image.flac", startFrame: 150, endFrame: 375),
            SongPart(image: "a/image.flac", startFrame: 375, endFrame: nil),
        ])
        #expect(songs.map { $0[.track] } == ["01", "02", "03"])
        #expect(songs.map(\.audio.duration) == [2, 3, 2.5])
        #expect(songs.allSatisfy { $0[.title] == "Whole" && $0[.artist] == "Image Artist" }, "the file's tags complete the block's")
    }

    @Test func aDataTrackIsNoSongAndAnOffsetBetweenFramesIsTakenDown() throws {
        var tracks = Self.threeTracks
        tracks[1].audio = false
        tracks[2].offset = 217_561  // one sample past a CD frame
        let songs = try EmbeddedCueSheet.songs(block: FLACCueSheetBlock.parse(Self.body(tracks)), image: "i.flac", imageTags: Self.image)
        #expect(songs.map(\.part?.startFrame) == [0, 375])
        #expect(songs.map { $0[.track] } == ["01", "03"])
    }

    @Test func hostileBlocksAreTypedErrors() throws {
        // Zero tracks, not even the lead-out; a lead-out alone; a track past the file's end.
        #expect(Self.code { () throws(PlaybackError) in try FLACCueSheetBlock.parse(Self.body([])) } == .malformedData)
        let leadOut = try FLACCueSheetBlock.parse(Self.body([BlockTrack(offset: 330_750, number: 170, points: [])]))
        #expect(Self.code { () throws(PlaybackError) in try EmbeddedCueSheet.songs(block: leadOut, image: "i.flac", imageTags: Self.image) } == .malformedData)
        let late = try FLACCueSheetBlock.parse(
            Self.body([BlockTrack(offset: 0, number: 1), BlockTrack(offset: 441_000, number: 2), BlockTrack(offset: 500_000, number: 170, points: [])]))
        #expect(Self.code { () throws(PlaybackError) in try EmbeddedCueSheet.songs(block: late, image: "i.flac", imageTags: Self.image) } == .malformedData)
        // Tracks that go back; a count the body does not hold; a body past the bound.
        let back = [BlockTrack(offset: 88_200, number: 1), BlockTrack(offset: 0, number: 2), BlockTrack(offset: 330_750, number: 170, points: [])]
        #expect(Self.code { () throws(PlaybackError) in try FLACCueSheetBlock.parse(Self.body(back)) } == .malformedData)
        #expect(Self.code { () throws(PlaybackError) in try FLACCueSheetBlock.parse(Self.body(Self.threeTracks, count: 200)) } == .malformedData)
        #expect(Self.code { () throws(PlaybackError) in try FLACCueSheetBlock.parse(Data(count: FLACCueSheetBlock.maxBytes + 1)) } == .documentTooLarge)
        // An offset near 2^64: no overflow, no place in the file.
        let huge = [BlockTrack(offset: UInt64.max - 1, number: 1, points: [(5, 1)]), BlockTrack(offset: UInt64.max, number: 170, points: [])]
        if let block = try? FLACCueSheetBlock.parse(Self.body(huge)) {
            #expect(Self.code { () throws(PlaybackError) in try EmbeddedCueSheet.songs(block: block, image: "i.flac", imageTags: Self.image) } == .malformedData)
        }
    }

    @Test func everyCutOfABlockAndRandomBytesEndInATypedError() {
        let whole = Self.body(Self.threeTracks)
        for length in 0..<whole.count {
            #expect(Self.code { () throws(PlaybackError) in try FLACCueSheetBlock.parse(whole.prefix(length)) } == .malformedData, "cut at \(length)")
        }
        // Random bodies (a fixed generator, so a failure repeats), and the valid one with random
        // bytes changed: parsed or refused, never a trap.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        for _ in 0..<2_000 {
            var bytes = [UInt8](whole)
            if next() % 2 == 0 {
                bytes = (0..<Int(next() % 2_000)).map { _ in UInt8(next() & 0xFF) }
            } else {
                for _ in 0..<8 { bytes[Int(next() % UInt64(bytes.count))] = UInt8(next() & 0xFF) }
            }
            if let block = try? FLACCueSheetBlock.parse(Data(bytes)) {
                _ = try? EmbeddedCueSheet.songs(block: block, image: "i.flac", imageTags: Self.image)
            }
        }
    }

    @Test func aCommentsSheetIsInTheFileThatHoldsItWhateverItsFILESays() throws {
        let text = """
            PERFORMER "Band"
            TITLE "Album"
            FILE "some other name.wav" WAVE
              TRACK 01 AUDIO
                TITLE "One"
                INDEX 01 00:00:00
              TRACK 02 AUDIO
                TITLE "Two"
                PERFORMER "Guest"
                INDEX 00 00:02:00
                INDEX 01 00:03:00
            """
        let songs = try EmbeddedCueSheet.songs(comment: Data(text.utf8), image: "a/image.flac", imageTags: Self.image)
        #expect(songs.map(\.part) == [SongPart(image: "a/image.flac", startFrame: 0, endFrame: 225), SongPart(image: "a/image.flac", startFrame: 225, endFrame: nil)])
        #expect(songs.map { $0[.artist] } == ["Image Artist", "Guest"], "a track without PERFORMER has the file's artist, as mpd completes it")
        #expect(songs.map { $0[.album] } == ["Album", "Album"] && songs.map { $0[.albumArtist] } == ["Band", "Band"])
    }

    @Test func hostileCommentsAreTypedErrors() {
        let image = Self.image
        // Garbage, a sheet without a track, two FILEs restarting at zero, a track past the end.
        let cases: [String] = [
            "\u{0}\u{1}garbage ###", "TITLE \"No tracks\"\nFILE \"x.wav\" WAVE\n",
            "FILE \"a.wav\" WAVE\n TRACK 01 AUDIO\n INDEX 01 00:00:00\nFILE \"b.wav\" WAVE\n TRACK 02 AUDIO\n INDEX 01 00:00:00\n",
            "FILE \"a.wav\" WAVE\n TRACK 01 AUDIO\n INDEX 01 00:00:00\n TRACK 02 AUDIO\n INDEX 01 00:09:00\n",
        ]
        for text in cases {
            #expect(
                Self.code { () throws(PlaybackError) in try EmbeddedCueSheet.songs(comment: Data(text.utf8), image: "i.flac", imageTags: image) }
                    == .malformedData, "\(text)")
        }
    }
}
