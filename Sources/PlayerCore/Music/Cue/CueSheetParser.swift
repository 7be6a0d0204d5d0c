import Foundation

/// Reads a cue sheet's bytes (a `.cue` file, or the `CUESHEET` comment of a FLAC file) into a
/// `CueSheet`, the way mpd's cue parser reads one, so the tracks and tags are the ones mpd shows:
///
/// - Text is UTF-8 (a byte order mark is dropped); bytes that are not UTF-8 are read as Latin-1,
///   which is what older rippers (EAC on Windows) write. Lines end in LF, CRLF or CR.
/// - A value is quoted (`TITLE "Two Words"`, no escapes inside) or one word (`TITLE Word`); a
///   line's keyword is case-insensitive.
/// - `TITLE`, `PERFORMER`, `SONGWRITER` before the first `TRACK` are the disc's, after it the
///   track's; `REM GENRE`, `REM DATE`, `REM COMMENT`, `REM DISCID` are read, other `REM`s and
///   unknown keywords ignored.
/// - A track starts at its `INDEX 01` (`mm:ss:ff`, 75 frames a second; `INDEX 00`, the pregap,
///   belongs to the track before, as in mpd, except on the first track, which starts at its first
///   `INDEX`). Non-`AUDIO` tracks, tracks of a `BINARY` file and tracks without an `INDEX` are
///   left out (mpd would start the last at 0); an `INDEX` time that is not `mm:ss:ff` is ignored,
///   as mpd ignores it.
/// - `SONGWRITER` is read but, as in mpd, makes no tag.
///
/// Bounded: at most `maxBytes` of input, `maxTracks` tracks, values cut to `maxValueLength`, so a
/// hostile file ends in a typed error (`documentTooLarge`, `malformedData` for too many tracks or
/// tracks of one file out of order), never a crash or an unbounded allocation. Pure: no I/O.
public enum CueSheetParser {
    public static let maxBytes = 1 << 20
    /// The Red Book's limit.
    public static let maxTracks = 99
    public static let maxValueLength = 1024
    /// Minutes a cue time may have (a day of audio): a bigger one is a broken sheet, not a disc.
    static let maxMinutes = 24 * 60

    public static func parse(_ data: Data) throws(PlaybackError) -> CueSheet {
        guard data.count <= maxBytes else {
            throw PlaybackError(.documentTooLarge, underlying: "cue sheet: \(data.count) bytes, over \(maxBytes)")
        }
        return try parse(text: decoded(data))
    }

    /// The text of `data`: UTF-8 without its byte order mark, else Latin-1.
    static func decoded(_ data: Data) -> String {
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: bytes.map { Unicode.Scalar($0) })
        return String(text)
    }

    public static func parse(text: String) throws(PlaybackError) -> CueSheet {
        var sheet = CueSheet()
        var file: String?
        /// The track being read: its number, file, fields, start; nil before the first and for
        /// a track being skipped.
        var current: CueSheet.Track?
        var skipping = false
        var inTracks = false
        /// The current track's start is final (its INDEX 01 came).
        var indexSettled = false

        func close() throws(PlaybackError) {
            defer { current = nil }
            guard let track = current, track.startFrame >= 0 else { return }
            if let previous = sheet.tracks.last, previous.file == track.file, previous.startFrame >= track.startFrame {
                throw PlaybackError(.malformedData, underlying: "cue sheet: track \(track.number) starts before the track ahead of it ends")
            }
            guard sheet.tracks.count < maxTracks else {
                throw PlaybackError(.malformedData, underlying: "cue sheet: more than \(maxTracks) tracks")
            }
            sheet.tracks.append(track)
        }

        for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            var line = CueLine(rawLine)
            guard let keyword = line.word()?.uppercased() else { continue }
            switch keyword {
            case "FILE":
                try close()
                inTracks = true
                // mpd reads tracks of the types a cue sheet names audio files by; a BINARY or
                // MOTOROLA file is a CD image's data, and its tracks are left out.
                let name = line.value()
                let type = line.word()?.uppercased()
                guard let name, let type, Self.audioFileTypes.contains(type) else {
                    file = nil
                    skipping = true
                    continue
                }
                file = name
                skipping = false
            case "TRACK":
                try close()
                inTracks = true
                guard let number = line.word(), let type = line.word(), let file else {
                    skipping = true  // before any FILE, or in a file that is not audio
                    continue
                }
                skipping = type.uppercased() != "AUDIO"
                indexSettled = false
                // -1: no INDEX 01 seen yet; such a track is left out when it closes.
                current = skipping ? nil : CueSheet.Track(number: clipped(number), file: file, startFrame: -1)
            case "INDEX":
                guard !skipping, current != nil, !indexSettled else { continue }
                guard let number = line.word(), let time = line.word(), let position = frames(time) else { continue }
                // mpd's rule: the first track starts at its first INDEX (00 or 01); a later
                // track's INDEX 00 is its start only until its INDEX 01 comes.
                current?.startFrame = position
                if Int(number) != 0 || sheet.tracks.isEmpty { indexSettled = true }
            case "TITLE", "PERFORMER", "SONGWRITER":
                guard !skipping || !inTracks else { continue }
                guard let value = line.value() else { continue }
                if !inTracks {
                    set(keyword, value, in: &sheet.disc)
                } else if current != nil {
                    set(keyword, value, in: &current!.fields)
                }
            case "REM":
                guard !skipping || !inTracks, let name = line.word()?.uppercased(), let value = line.value() else { continue }
                switch name {
                case "DISCID": if !inTracks { sheet.discID = value }
                case "GENRE", "DATE", "COMMENT":
                    if !inTracks {
                        set(name, value, in: &sheet.disc)
                    } else if current != nil {
                        set(name, value, in: &current!.fields)
                    }
                default: continue
                }
            default:
                continue
            }
        }
        try close()
        return sheet
    }

    private static func set(_ keyword: String, _ value: String, in fields: inout CueSheet.Fields) {
        switch keyword {
        case "TITLE": fields.title = value
        case "PERFORMER": fields.performer = value
        case "SONGWRITER": fields.songwriter = value
        case "GENRE": fields.genre = value
        case "DATE": fields.date = value
        case "COMMENT": fields.comment = value
        default: break
        }
    }

    /// `mm:ss:ff` in CD frames; nil for anything else (mpd ignores such an INDEX).
    static func frames(_ time: String) -> Int? {
        let parts = time.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.count <= 6 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let minutes = Int(parts[0]), let seconds = Int(parts[1]), let frames = Int(parts[2]),
            minutes <= maxMinutes, seconds < 60, frames < CueSheet.framesPerSecond
        else { return nil }
        return (minutes * 60 + seconds) * CueSheet.framesPerSecond + frames
    }

    /// The `FILE` types whose tracks are read, as in mpd (`FLAC` is not in the standard but
    /// rippers write it).
    static let audioFileTypes: Set<String> = ["WAVE", "FLAC", "MP3", "AIFF"]

    static func clipped(_ value: some StringProtocol) -> String {
        TextSanitizer.singleLine(String(value), maxLength: maxValueLength)
    }
}

extension CueSheet {
    /// CD frames a second.
    public static let framesPerSecond = SongPart.framesPerSecond
}

/// One line of a cue sheet, read a word or a value at a time.
struct CueLine {
    private var rest: Substring

    init(_ line: Substring) { rest = line }

    /// The next word (up to a space or tab), nil at the end of the line.
    mutating func word() -> String? {
        rest = rest.drop { $0 == " " || $0 == "\t" }
        guard !rest.isEmpty else { return nil }
        let word = rest.prefix { $0 != " " && $0 != "\t" }
        rest = rest.dropFirst(word.count)
        return CueSheetParser.clipped(word)
    }

    /// The next value: quoted (up to the closing quote, or the end of the line when there is
    /// none), else one word; nil when the line has none or it is blank.
    mutating func value() -> String? {
        rest = rest.drop { $0 == " " || $0 == "\t" }
        guard rest.first == "\"" else { return word() }
        rest = rest.dropFirst()
        let value = rest.prefix { $0 != "\"" }
        rest = rest.dropFirst(min(rest.count, value.count + 1))
        let cleaned = CueSheetParser.clipped(value)
        return cleaned.isEmpty ? nil : cleaned
    }
}
