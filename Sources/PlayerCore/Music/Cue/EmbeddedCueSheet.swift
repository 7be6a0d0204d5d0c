import Foundation

/// A cue sheet inside a FLAC file, in either of the two forms rippers write, as the songs of its
/// tracks (`image.flac/track0001`...), each a part of the FLAC itself (`SongPart`):
///
/// - `comment`: a `CUESHEET` Vorbis comment holding a cue sheet's text (foobar2000, EAC). Read by
///   `CueSheetParser` in CD frames, as a `.cue` is. Its `FILE` names are ignored, as mpd's
///   `embcue` plugin ignores them: every track is in the file that holds the sheet.
/// - `block`: the `CUESHEET` metadata block (`metaflac --import-cuesheet-from`), in samples
///   (`FLACCueSheetBlock`). A track starts at its `INDEX 01`, as in the text, and ends where the
///   next audio track starts; the lead-out and non-audio tracks are no songs. Its samples become
///   CD frames, exact at every rate that is a whole number of samples a CD frame (44.1, 48, 88.2,
///   96, 176.4, 192 kHz, and any CD-DA sheet); an offset between two frames is taken down to the
///   frame before it (at most 1/75 s early).
///
/// Each song has the sheet's tags and, for every tag the sheet does not give, the FLAC's own, as
/// mpd 0.23 merges a playlist's song with the song it points to (`TagBuilder::Complement`).
///
/// A sheet that names no track, or a track that starts past the end of the file, is
/// `.malformedData`: the caller keeps the FLAC as one whole song. Pure: no I/O.
public enum EmbeddedCueSheet {
    public enum Form: String, Sendable, Hashable {
        case comment, block
    }

    /// The songs of the sheet in a FLAC's `CUESHEET` comment; `image` is the FLAC's path.
    public static func songs(comment: Data, image: String, imageTags: SongTags) throws(PlaybackError) -> [SongTags] {
        var sheet = try CueSheetParser.parse(comment)
        for index in sheet.tracks.indices { sheet.tracks[index].file = image }
        for (earlier, later) in zip(sheet.tracks, sheet.tracks.dropFirst()) where later.startFrame <= earlier.startFrame {
            throw PlaybackError(.malformedData, underlying: "embedded cue sheet: track \(later.number) starts before the one ahead of it")
        }
        let songs = sheet.tracks.indices.map { sheet.songTags(ofTrack: $0, image: image, imageTags: imageTags) }
        return try checked(songs.map { $0.completed(by: imageTags) }, imageTags: imageTags)
    }

    /// The songs of a FLAC's `CUESHEET` block.
    public static func songs(block: FLACCueSheetBlock, image: String, imageTags: SongTags) throws(PlaybackError) -> [SongTags] {
        guard let rate = imageTags.audio.sampleRate, rate > 0 else {
            throw PlaybackError(.malformedData, underlying: "embedded cue sheet block: no sample rate to place its tracks by")
        }
        let leadOuts: Set<Int> = [FLACCueSheetBlock.leadOutCD, FLACCueSheetBlock.leadOutOther]
        let audio = block.tracks.dropLast().filter { $0.isAudio && !leadOuts.contains($0.number) }
        var starts: [(number: Int, frame: Int)] = []
        for track in audio {
            guard let start = track.start, let frame = frame(ofSample: start, rate: rate) else {
                throw PlaybackError(.malformedData, underlying: "embedded cue sheet block: track \(track.number) has no place in the file")
            }
            if let previous = starts.last, previous.frame >= frame {
                throw PlaybackError(.malformedData, underlying: "embedded cue sheet block: track \(track.number) starts before the one ahead of it")
            }
            starts.append((track.number, frame))
        }
        var songs: [SongTags] = []
        for (index, start) in starts.enumerated() {
            var tags = SongTags(audio: imageTags.audio)
            tags[all: .track] = [start.number < 10 ? "0\(start.number)" : String(start.number)]
            let end = starts.indices.contains(index + 1) ? starts[index + 1].frame : nil
            let part = SongPart(image: image, startFrame: start.frame, endFrame: end)
            tags.part = part
            tags.audio.duration = part.duration(imageDuration: imageTags.audio.duration)
            songs.append(tags.completed(by: imageTags))
        }
        return try checked(songs, imageTags: imageTags)
    }

    /// A sample as a CD frame (down to the frame it lies in); nil past a day of audio.
    static func frame(ofSample sample: UInt64, rate: Int) -> Int? {
        let limit = UInt64(CueSheetParser.maxMinutes) * 60 * UInt64(rate)
        guard sample <= limit else { return nil }
        return Int(sample * UInt64(SongPart.framesPerSecond) / UInt64(rate))
    }

    /// The songs, refused when there are none or one starts at or past the file's end.
    private static func checked(_ songs: [SongTags], imageTags: SongTags) throws(PlaybackError) -> [SongTags] {
        guard !songs.isEmpty else { throw PlaybackError(.malformedData, underlying: "embedded cue sheet without an audio track") }
        if let length = imageTags.audio.duration, let last = songs.last?.part, last.start >= length {
            throw PlaybackError(.malformedData, underlying: "embedded cue sheet: a track starts past the end of its file")
        }
        return songs
    }
}
