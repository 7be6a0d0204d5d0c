import Foundation
import FuzzSupport
import PlayerCore

// The cue sheet parser. Input: a sheet's bytes (a `.cue` file, or a FLAC file's CUESHEET).
//
// Contract: a `CueSheet` or `.malformedData`/`.documentTooLarge`; what it accepts respects its
// bounds (at most `maxTracks` tracks, each value within `maxValueLength` and one line), the
// tracks of one file start in order, and every track's part is a valid range of its image.
@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzCue(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    do {
        let sheet = try CueSheetParser.parse(Data(fuzzBytes(data, size)))
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

runLibFuzzer(fuzzCue)
