import Foundation

/// Reads lyrics into a `Transcript` the Now Playing follower can follow: LRC text (an `.lrc`
/// file, or a lyrics tag that holds LRC), lines with times from elsewhere (an ID3v2 `SYLT`
/// frame), or plain text (shown whole, not followed).
///
/// LRC as players read it:
/// - A line starts with one or more stamps, `[mm:ss.xx]` (also `[mm:ss]`, `[mm:ss:xx]` and one to
///   three fraction digits); a line with several stamps is sung at each of them. Lines without a
///   stamp, and stamps that are no time (`[00:6x]`, seconds of 60 or more, a negative time), are
///   ignored, as players ignore them.
/// - A stamp with no text after it ends the line before it (an instrumental break): no line is
///   current until the next one.
/// - `[offset:+/-ms]` moves every stamp; positive shows the lyrics sooner (the LRC convention).
/// - The ID tags `[ar:]`, `[ti:]`, `[al:]` are kept as `LyricsInfo`; `[length:]` ends the last
///   line; the others (`[by:]`, `[au:]`, `[re:]`, `[ve:]`, `[#:]`) are ignored.
/// - Enhanced LRC's word stamps (`<mm:ss.xx>` inside a line) are stripped: lines are followed,
///   not words.
/// - Text is UTF-8 with or without a byte order mark (UTF-16 with one), else Latin-1, which
///   older editors on Windows write; lines end in LF, CRLF or CR.
///
/// Bounded, with typed errors: more than `maxBytes`, `maxLines` lines, a line longer than
/// `maxLineLength` characters or more stamped lines than a transcript keeps is
/// `.documentTooLarge`; LRC with no stamped line of text is `.malformedData`. Pure: no I/O.
public enum LyricsParser {
    public static let maxBytes = 1 << 20
    public static let maxLines = 20_000
    public static let maxLineLength = 4_096
    /// Minutes a stamp may have (a day): a larger one is a broken file, not a song.
    static let maxMinutes = 24 * 60
    /// How long the last line stays current when the lyrics do not state the song's length: to
    /// the end of the song, whatever it is.
    public static let lastLineHold: TimeInterval = 24 * 3600

    /// The lyrics of an LRC file's bytes.
    public static func parse(_ data: Data, origin: LyricsInfo.Origin = .lrcFile) throws(PlaybackError) -> Transcript {
        guard data.count <= maxBytes else {
            throw PlaybackError(.documentTooLarge, underlying: "lyrics: \(data.count) bytes, over \(maxBytes)")
        }
        return try parse(text: decoded(data), origin: origin)
    }

    /// The lyrics of LRC text.
    public static func parse(text: String, origin: LyricsInfo.Origin = .lrcFile) throws(PlaybackError) -> Transcript {
        let document = try read(text)
        guard !document.lines.isEmpty else { throw PlaybackError(.malformedData, underlying: "lyrics: no line has a time stamp") }
        let shift = Double(document.offsetMilliseconds) / 1_000
        let lines = document.lines.map { (start: max(0, $0.start - shift), text: $0.text) }
        let info = LyricsInfo(origin: origin, artist: document.artist, title: document.title, album: document.album)
        let lyrics = timed(lines, info: info, length: document.length)
        guard !lyrics.isEmpty else { throw PlaybackError(.malformedData, underlying: "lyrics: no stamped line has text") }
        return lyrics
    }

    /// A lyrics tag's text: followed when it is LRC with stamps, else shown whole; nil when it
    /// holds no line of text.
    public static func transcript(fromTagText text: String, origin: LyricsInfo.Origin = .tag) -> Transcript? {
        if let lyrics = try? parse(text: text, origin: origin), !lyrics.isEmpty { return lyrics }
        return plain(text, info: LyricsInfo(origin: origin))
    }

    /// Unsynchronised lyrics: a cue per line, untimed; nil when no line has text.
    public static func plain(_ text: String, info: LyricsInfo) -> Transcript? {
        var cues: [TranscriptCue] = []
        for line in text.split(whereSeparator: \.isNewline) {
            guard cues.count < Transcript.maxCues else { break }
            if let cue = TranscriptCue(start: 0, end: 0, text: String(line.prefix(maxLineLength))) { cues.append(cue) }
        }
        return cues.isEmpty ? nil : Transcript(cues: cues, timed: false, lyrics: info)
    }

    /// Lines with times as cues: each current from its time until the next later time (a line or
    /// an empty stamp), the last until `length` when that is later, else for `lastLineHold`.
    /// Order in the input does not matter: lines are sorted by time, equal times keep their order.
    public static func timed(_ lines: [(start: TimeInterval, text: String)], info: LyricsInfo, length: TimeInterval?) -> Transcript {
        let starts = Array(Set(lines.map(\.start))).sorted()
        let cues = lines.compactMap { line -> TranscriptCue? in
            // The first time after this line's, by binary search.
            var low = 0, high = starts.count
            while low < high {
                let middle = (low + high) / 2
                if starts[middle] <= line.start { low = middle + 1 } else { high = middle }
            }
            let end = low < starts.count ? starts[low] : (length.flatMap { $0 > line.start ? $0 : nil } ?? line.start + lastLineHold)
            return TranscriptCue(start: line.start, end: end, text: line.text)
        }
        return Transcript(cues: cues, timed: true, lyrics: info)
    }

    /// The text of `data`: UTF-8 without its byte order mark, UTF-16 with one, else Latin-1.
    static func decoded(_ data: Data) -> String {
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            let little = bytes.first == 0xFF
            let body = Array(bytes.dropFirst(2))
            var units: [UInt16] = []
            units.reserveCapacity(body.count / 2)
            for i in stride(from: 0, to: body.count - 1, by: 2) {
                let high = UInt16(body[little ? i + 1 : i]), low = UInt16(body[little ? i : i + 1])
                units.append(high << 8 | low)
            }
            return String(decoding: units, as: UTF16.self)
        }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: bytes.map { Unicode.Scalar($0) })
        return String(text)
    }

    /// What an LRC text says, before the offset is applied.
    struct Document {
        var lines: [(start: TimeInterval, text: String)] = []
        var offsetMilliseconds = 0
        var artist: String?
        var title: String?
        var album: String?
        var length: TimeInterval?
    }

    static func read(_ text: String) throws(PlaybackError) -> Document {
        var document = Document()
        var count = 0
        for line in text.split(whereSeparator: \.isNewline) {
            count += 1
            guard count <= maxLines else { throw PlaybackError(.documentTooLarge, underlying: "lyrics: more than \(maxLines) lines") }
            guard line.count <= maxLineLength else {
                throw PlaybackError(.documentTooLarge, underlying: "lyrics: line \(count) is over \(maxLineLength) characters")
            }
            var rest = line.drop { $0 == " " || $0 == "\t" }
            var stamps: [TimeInterval] = []
            while rest.first == "[", let close = rest.firstIndex(of: "]") {
                let inside = rest[rest.index(after: rest.startIndex)..<close]
                if let time = stamp(inside) {
                    stamps.append(time)
                    rest = rest[rest.index(after: close)...].drop { $0 == " " || $0 == "\t" }
                    continue
                }
                if stamps.isEmpty { take(idTag: inside, into: &document) }
                break
            }
            guard !stamps.isEmpty else { continue }
            guard document.lines.count + stamps.count <= Transcript.maxCues else {
                throw PlaybackError(.documentTooLarge, underlying: "lyrics: more than \(Transcript.maxCues) timed lines")
            }
            let words = withoutWordStamps(rest).trimmingCharacters(in: .whitespaces)
            document.lines += stamps.map { (start: $0, text: words) }
        }
        return document
    }

    /// A time stamp's seconds: `m:ss`, `m:ss.f`, `m:ss.ff`, `m:ss.fff` or `m:ss:ff`; nil for
    /// anything else.
    static func stamp(_ text: Substring) -> TimeInterval? {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return nil }
        var secondsPart = parts[1]
        var fraction: Substring = ""
        if parts.count == 3 {
            fraction = parts[2]
        } else if let dot = secondsPart.firstIndex(of: ".") {
            fraction = secondsPart[secondsPart.index(after: dot)...]
            secondsPart = secondsPart[..<dot]
            guard !fraction.isEmpty else { return nil }
        }
        func digits(_ s: Substring, _ range: ClosedRange<Int>) -> Int? {
            guard range.contains(s.count), s.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(s)
        }
        guard let minutes = digits(parts[0], 1...4), minutes <= maxMinutes, let seconds = digits(secondsPart, 1...2), seconds < 60
        else { return nil }
        var time = Double(minutes * 60 + seconds)
        if !fraction.isEmpty {
            guard let value = digits(fraction, 1...3) else { return nil }
            time += Double(value) / pow(10, Double(fraction.count))
        }
        return time
    }

    /// Reads an ID tag (`[ar:Artist]`); anything else in brackets is ignored.
    static func take(idTag text: Substring, into document: inout Document) {
        guard let colon = text.firstIndex(of: ":") else { return }
        let key = text[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        switch key {
        case "ar": document.artist = value
        case "ti": document.title = value
        case "al": document.album = value
        case "length": document.length = stamp(Substring(value))
        case "offset":
            // Milliseconds, at most a day either way; a value that is no number is ignored.
            let digits = value.hasPrefix("+") ? String(value.dropFirst()) : value
            if let offset = Int(digits), abs(offset) <= maxMinutes * 60_000 { document.offsetMilliseconds = offset }
        default: break
        }
    }

    /// A line's text without enhanced LRC's word stamps (`<00:12.34>`); other angle brackets kept.
    static func withoutWordStamps(_ text: Substring) -> String {
        guard text.contains("<") else { return String(text) }
        var result = ""
        var rest = text
        while let open = rest.firstIndex(of: "<") {
            result += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: ">"), stamp(after[..<close]) != nil {
                rest = after[after.index(after: close)...]
            } else {
                result.append("<")
                rest = after
            }
        }
        return result + rest
    }
}
