import Foundation

/// One line of a transcript: what is said from `start` to `end` (media seconds), and by whom
/// when the transcript names the speaker.
public struct TranscriptCue: Sendable, Hashable, Codable {
    public let start: TimeInterval
    public let end: TimeInterval
    /// Sanitised one-line text (a cue's line breaks become spaces).
    public let text: String
    /// Sanitised; nil when the transcript does not say.
    public let speaker: String?

    /// Nil when the times are not finite or the text is empty once sanitised. An end before the
    /// start is taken as the start (a cue of no length still shows, as a moment).
    public init?(start: TimeInterval, end: TimeInterval, text: String, speaker: String? = nil) {
        guard start.isFinite, end.isFinite, start >= 0 else { return nil }
        let line = TextSanitizer.singleLine(text, maxLength: Transcript.maxCueLength)
        guard !line.isEmpty else { return nil }
        self.start = start
        self.end = max(start, end)
        self.text = line
        self.speaker = TextSanitizer.optionalSingleLine(speaker, maxLength: 80)
    }
}

/// An episode's transcript: its cues in order, with the pure rule of which one is spoken at a
/// position. A transcript without times (a page of HTML) keeps its paragraphs as cues at 0 and is
/// not `timed`: it can be read, not followed.
///
/// Transcripts come from servers and files the listener does not control, so what reaches this
/// type is bounded here: at most `maxCues` cues of at most `maxCueLength` characters each, every
/// text sanitised.
public struct Transcript: Sendable, Hashable, Codable {
    /// The most cues kept: a three-hour episode has a few thousand lines; a hostile document could
    /// name millions.
    public static let maxCues = 20_000
    /// The longest cue text kept, characters (a paragraph of an untimed transcript included).
    public static let maxCueLength = 2_000

    /// Sorted by start (cues with the same start keep their order), at most `maxCues`.
    public let cues: [TranscriptCue]
    /// The cues carry times: the transcript can follow the voice.
    public let timed: Bool
    /// Set when the cues are a song's lyrics (the same follower, titled "Lyrics"); nil for a
    /// talk's transcript. Optional, so transcripts kept before lyrics existed still decode.
    public let lyrics: LyricsInfo?

    public init(cues: [TranscriptCue], timed: Bool = true, lyrics: LyricsInfo? = nil) {
        let ordered = timed ? cues.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element) : cues
        self.cues = Array(ordered.prefix(Self.maxCues))
        self.timed = timed
        self.lyrics = lyrics
    }

    public var isEmpty: Bool { cues.isEmpty }

    /// The cue spoken at `position`: the last one that has started and not yet ended; nil between
    /// cues, before the first, and for an untimed transcript.
    public func index(at position: TimeInterval) -> Int? {
        guard timed, position.isFinite else { return nil }
        // The first cue that starts after `position`, by binary search: the candidates are before it.
        var low = 0, high = cues.count
        while low < high {
            let middle = (low + high) / 2
            if cues[middle].start <= position { low = middle + 1 } else { high = middle }
        }
        // Cues may overlap (two speakers at once): the latest one started that still runs.
        var i = low - 1
        while i >= 0, i >= low - 8 {
            if cues[i].end > position || cues[i].start == position { return i }
            i -= 1
        }
        return nil
    }
}

/// Which cue is spoken, as front ends show and announce it.
public struct TranscriptCuePosition: Sendable, Hashable, Codable {
    /// From 0, in the transcript's `cues`.
    public let index: Int
    public let cue: TranscriptCue

    public init(index: Int, cue: TranscriptCue) {
        self.index = index
        self.cue = cue
    }
}

extension Transcript {
    /// The cue spoken at `position`, for showing it; nil between cues and for an untimed transcript.
    public func current(at position: TimeInterval) -> TranscriptCuePosition? {
        index(at: position).map { TranscriptCuePosition(index: $0, cue: cues[$0]) }
    }
}
