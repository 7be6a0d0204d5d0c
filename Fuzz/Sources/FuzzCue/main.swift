import Foundation
import FuzzSupport
import PlayerCore

// The cue sheet parsers. Input: a sheet's bytes (a `.cue` file, or a FLAC file's CUESHEET
// comment), read as text; the same bytes read as a FLAC's CUESHEET metadata block's body.
//
// Contract: a `CueSheet` or `.malformedData`/`.documentTooLarge`; what it accepts respects its
// bounds (at most `maxTracks` tracks, each value within `maxValueLength` and one line), the
// tracks of one file start in order, and every track's part is a valid range of its image.
// Either form embedded in a FLAC gives songs whose parts start in order inside the file, or
// `.malformedData`/`.documentTooLarge`.
@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzCue(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Data(fuzzBytes(data, size))
    checkEmbedded(bytes, asBlock: false)
    checkEmbedded(bytes, asBlock: true)
    do {
        let sheet = try CueSheetParser.parse(bytes)
        fuzzCheck(sheet.tracks.count <= CueSheetParser.maxTracks, "\(sheet.tracks.count) tracks")
        let fields = [sheet.disc] + sheet.tracks.map(\.fields)
        for value in fields.flatMap({ [$0.title, $0.performer, $0.songwriter, $0.genre, $0.date, $0.comment] }).compactMap({ $0 }) {
            fuzzCheck(value.count <= CueSheetParser.maxValueLength, "a value of \(value.count) characters")
            fuzzCheck(!value.contains("\n") && !value.contains("\r"), "a value over two lines")
        }
        for index in sheet.tracks.indices {
            let track = sheet.tracks[index]
            fuzzCheck(track.startFrame >= 0, "track \(track.number) starts at \(track.startFrame)")
            let part = sheet.part(ofTrack: index, image: track.file)
            if let end = part.endFrame { fuzzCheck(end > part.startFrame, "track \(track.number) ends before it starts") }
            let tags = sheet.songTags(ofTrack: index, image: track.file, imageTags: SongTags(audio: AudioProperties(duration: 1)))
            fuzzCheck(tags.audio.duration.map { $0 >= 0 } ?? true, "a negative duration")
        }
    } catch {
        fuzzCheck(error, isOneOf: [.malformedData, .documentTooLarge])
    }
    return 0
}

/// The bytes as a sheet embedded in a FLAC of 600 s at 44.1 kHz: its comment, or its block.
func checkEmbedded(_ bytes: Data, asBlock: Bool) {
    var image = SongTags(audio: AudioProperties(duration: 600))
    image.audio.sampleRate = 44_100
    do {
        let songs: [SongTags]
        if asBlock {
            songs = try EmbeddedCueSheet.songs(block: try FLACCueSheetBlock.parse(bytes), image: "i.flac", imageTags: image)
        } else {
            songs = try EmbeddedCueSheet.songs(comment: bytes, image: "i.flac", imageTags: image)
        }
        fuzzCheck(!songs.isEmpty, "an embedded sheet without a song")
        let parts = songs.compactMap(\.part)
        fuzzCheck(parts.count == songs.count, "an embedded track without a part")
        for (earlier, later) in zip(parts, parts.dropFirst()) {
            fuzzCheck(later.startFrame > earlier.startFrame && earlier.endFrame == later.startFrame, "embedded tracks out of order")
        }
        fuzzCheck(parts.last.map { $0.start < 600 } ?? true, "an embedded track past the end of its file")
    } catch {
        fuzzCheck(error, isOneOf: [.malformedData, .documentTooLarge])
    }
}

runLibFuzzer(fuzzCue)
