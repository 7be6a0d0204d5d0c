import Foundation
import Library
import PlayerCore

/// One cue sheet of the music directory read into its tracks' rows: the sheet parsed
/// (`CueSheetParser`), each `FILE` it names read once for its audio properties and length, and
/// each track written as `album.cue/track0001`..., with the sheet's stamp, so the index compares
/// and drops them with the sheet (`MusicIndexPlan`).
///
/// A sheet that cannot be read (too large, malformed, no audio track, an image missing or
/// outside the sheet's folder tree) is a failure of the sheet's own path, listed by
/// `tonearm music failures`, never silently missing.
package enum CueSheetReading {
    /// The rows of the sheet at `path` (relative to `directory`).
    package static func readings(
        of path: String, stamp: MusicFileStamp, in directory: URL, read: MusicIndexer.TagRead
    ) throws(PlaybackError) -> [MusicFileReading] {
        guard stamp.size <= Int64(CueSheetParser.maxBytes) else {
            throw PlaybackError(.documentTooLarge, underlying: "cue sheet over \(CueSheetParser.maxBytes) bytes")
        }
        let data: Data
        do { data = try Data(contentsOf: directory.appendingPathComponent(path)) } catch { throw PlaybackError.from(error) }
        let sheet = try CueSheetParser.parse(data)
        guard !sheet.tracks.isEmpty else { throw PlaybackError(.malformedData, underlying: "cue sheet without an audio track") }
        let folder = MusicFiles.directory(of: path)
        var images: [String: (path: String, tags: SongTags)] = [:]
        var readings: [MusicFileReading] = []
        for index in sheet.tracks.indices {
            let file = sheet.tracks[index].file
            if images[file] == nil {
                let image = try CueSheet.imagePath(file, besides: folder)
                images[file] = (image, try read(directory.appendingPathComponent(image)))
            }
            guard let image = images[file] else { continue }
            // Completed by the image's own tags, as mpd completes a playlist's song by the song
            // it points to (a track without PERFORMER has the image's ARTIST).
            let tags = sheet.songTags(ofTrack: index, image: image.path, imageTags: image.tags).completed(by: image.tags)
            readings.append(MusicFileReading(path: path + "/" + CueSheet.songName(ofTrack: index), stamp: stamp, result: .success(tags)))
        }
        return readings
    }
}
