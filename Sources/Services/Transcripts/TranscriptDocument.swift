import Foundation
import PlayerCore

/// A transcript's bytes, in any of the formats podcasts publish, as a `Transcript`.
///
/// Pure, and trusting nothing: the size is capped before anything is read, the text is decoded as
/// UTF-8 with bad bytes replaced, and every parser bounds the cues it keeps. A format given as
/// WebVTT or SRT is read by one lenient parser (files labelled one are often the other); JSON
/// that is not the transcript format, and a timed format with no cue at all, are `malformedData`.
public enum TranscriptDocument {
    /// - Throws: `documentTooLarge` above `maxBytes`; `malformedData` when nothing in the bytes
    ///   is a transcript of `format`.
    public static func parse(_ data: Data, format: TranscriptFormat, maxBytes: Int = ServiceLimits.maxTranscriptBytes) throws(PlaybackError)
        -> Transcript
    {
        guard data.count <= maxBytes else {
            throw PlaybackError(.documentTooLarge, underlying: "transcript of \(data.count) bytes")
        }
        let cues: [TranscriptCue]
        switch format {
        case .webVTT, .srt:
            cues = SubtitleParser.parse(String(decoding: data, as: UTF8.self))
        case .json:
            cues = try TranscriptJSONParser.parse(data)
        case .html:
            cues = HTMLTranscriptParser.parse(String(decoding: data, as: UTF8.self))
        }
        guard !cues.isEmpty else {
            throw PlaybackError(.malformedData, underlying: "no \(format.rawValue) transcript cue in \(data.count) bytes")
        }
        return Transcript(cues: cues, timed: format.isTimed)
    }
}
