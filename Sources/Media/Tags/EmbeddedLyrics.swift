import CFFmpeg
import Foundation
import PlayerCore

/// A local file's own lyrics as a transcript Now Playing can follow, in the order of preference:
/// an ID3v2 `SYLT` frame (lines with times), then a lyrics tag holding LRC text with stamps
/// (a Vorbis/FLAC/Opus `LYRICS` or `UNSYNCEDLYRICS` comment, an MP4 `©lyr` atom, an ID3v2 `USLT`
/// frame: taggers put LRC in all of them), then the first lyrics tag as plain text (shown whole,
/// not followed). An `.lrc` file beside the audio file comes before all of these; finding it is
/// the player's (`PlayerTranscripts`).
///
/// Bounded as the tag reader is: ID3v2 frames through `ID3v2LyricsFrames`, FFmpeg's tags read
/// from a probed file (headers only), each value at most `LyricsParser.maxBytes`.
package enum EmbeddedLyrics {
    /// The lyrics of the file at `url`; nil when it has none or cannot be read.
    package static func transcript(of url: URL) -> Transcript? {
        guard url.isFileURL else { return nil }
        let frames = ID3v2LyricsFrames.read(url)
        return choose(synchronised: frames.synchronised, texts: frames.unsynchronised + tagTexts(of: url))
    }

    /// The preferred lyrics of those found: the first `SYLT` frame of lyrics (content type 1) with
    /// a line, else any with a line; else the first text with LRC stamps; else the first text, plain.
    static func choose(synchronised: [Result<ID3v2LyricsFrames.Synchronised, PlaybackError>], texts: [String]) -> Transcript? {
        let usable = synchronised.compactMap { try? $0.get() }.filter { $0.lines.contains { !$0.text.isEmpty } }
        if let frame = usable.first(where: { $0.contentType == 1 }) ?? usable.first {
            let lyrics = LyricsParser.timed(frame.lines, info: LyricsInfo(origin: .synchronisedFrame), length: nil)
            if !lyrics.isEmpty { return lyrics }
        }
        for text in texts {
            if let lyrics = try? LyricsParser.parse(text: text, origin: .tag), !lyrics.isEmpty { return lyrics }
        }
        for text in texts {
            if let lyrics = LyricsParser.plain(text, info: LyricsInfo(origin: .tag)) { return lyrics }
        }
        return nil
    }

    /// Keys FFmpeg gives lyrics under: `lyrics` (Vorbis comments, MP4's `©lyr`), `lyrics-<lang>`
    /// or `lyrics-<descriptor>-<lang>` (ID3v2 `USLT`), and the comments some taggers write.
    static func isLyricsKey(_ key: String) -> Bool {
        let key = key.lowercased()
        return key == "lyrics" || key.hasPrefix("lyrics-") || key == "unsyncedlyrics" || key == "unsynced lyrics" || key == "syncedlyrics"
    }

    /// The lyrics tags FFmpeg reads from the file's and its audio stream's metadata, each bounded.
    static func tagTexts(of url: URL) -> [String] {
        guard let file = try? ProbedFile.open(url, analysingStreams: false) else { return [] }
        var dictionaries = [file.format.pointee.metadata]
        for index in 0..<Int(file.format.pointee.nb_streams) {
            if let stream = file.stream(index), stream.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO {
                dictionaries.append(stream.pointee.metadata)
            }
        }
        var texts: [String] = []
        for dictionary in dictionaries {
            var entry: UnsafeMutablePointer<AVDictionaryEntry>?
            var seen = 0
            while seen < MediaLimits.maxTags, let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
                entry = next
                seen += 1
                guard let key = next.pointee.key, let value = next.pointee.value,
                    isLyricsKey(TagNormalisation.boundedText(key, limit: 128))
                else { continue }
                let text = TagNormalisation.boundedText(value, limit: LyricsParser.maxBytes)
                if !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { texts.append(text) }
            }
        }
        return texts
    }
}
