import Foundation
import PlayerCore

/// The lyrics frames of an ID3v2.3/2.4 tag at the start of a file: `SYLT` (synchronised lyrics,
/// lines with times) and `USLT` (unsynchronised lyrics, text). FFmpeg 5.1 does not read `SYLT`
/// at all, so the frames are read here, the way `ID3v2TextFrames` reads text frames.
///
/// Bounded: frame headers are walked (at most `maxFrames`), and only lyrics frames of at most
/// `maxFrameBytes` are read; a picture or any other frame is skipped over, not read. A tag this
/// reader does not follow (tag-wide unsynchronisation, compressed or encrypted frames, ID3v2.2)
/// gives nothing.
enum ID3v2LyricsFrames {
    static let maxFrameBytes = LyricsParser.maxBytes
    static let maxFrames = 256

    /// A `SYLT` frame's lines: its times in seconds and each time's text.
    struct Synchronised: Equatable {
        /// `SYLT`'s content type (1: lyrics, 2: text transcription...).
        let contentType: UInt8
        let lines: [(start: TimeInterval, text: String)]

        static func == (a: Synchronised, b: Synchronised) -> Bool {
            a.contentType == b.contentType && a.lines.elementsEqual(b.lines) { $0.start == $1.start && $0.text == $1.text }
        }
    }

    /// What the tag holds: every `SYLT` frame read (or why one was refused), every `USLT` text.
    struct Frames {
        var synchronised: [Result<Synchronised, PlaybackError>] = []
        var unsynchronised: [String] = []
    }

    static func read(_ url: URL) -> Frames {
        var frames = Frames()
        guard let handle = try? FileHandle(forReadingFrom: url) else { return frames }
        defer { try? handle.close() }
        guard let header = read(handle, at: 0, count: 10), header.starts(with: Array("ID3".utf8)) else { return frames }
        let version = header[3]
        let flags = header[5]
        guard version == 3 || version == 4, flags & 0x80 == 0, let tagSize = ID3v2TextFrames.syncsafe(header[6..<10]) else { return frames }
        var offset = 10
        let end = 10 + tagSize
        if flags & 0x40 != 0 {  // an extended header: skipped
            guard let sizeBytes = read(handle, at: offset, count: 4) else { return frames }
            let size = version == 4 ? ID3v2TextFrames.syncsafe(sizeBytes[...]) : ID3v2TextFrames.bigEndian32(sizeBytes[...]) + 4
            guard let size, size >= 4, size <= tagSize else { return frames }
            offset += size
        }
        var count = 0
        while offset + 10 <= end, count < maxFrames {
            count += 1
            guard let frameHeader = read(handle, at: offset, count: 10), frameHeader[0] != 0 else { break }
            let id = String(decoding: frameHeader[0..<4], as: UTF8.self)
            guard id.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }) else { break }
            let size = version == 4 ? ID3v2TextFrames.syncsafe(frameHeader[4..<8]) : ID3v2TextFrames.bigEndian32(frameHeader[4..<8])
            guard let size, offset + 10 + size <= end else { break }
            let plain = version == 4 ? frameHeader[9] & 0x0F == 0 : frameHeader[9] & 0xC0 == 0
            if id == "SYLT" || id == "USLT", plain, size > 4, size <= maxFrameBytes, let body = read(handle, at: offset + 10, count: size) {
                if id == "SYLT" {
                    frames.synchronised.append(Result { () throws(PlaybackError) in try synchronised(body) })
                } else if let text = unsynchronised(body) {
                    frames.unsynchronised.append(text)
                }
            }
            offset += 10 + size
        }
        return frames
    }

    /// A `SYLT` body: encoding, language (3), time stamp format, content type, descriptor, then
    /// text and 32-bit big-endian time pairs. Times in milliseconds (format 2) are read; times in
    /// MPEG frames (format 1) depend on the stream's frame length and are refused
    /// (`.unsupportedFormat`), as is any other format; a body cut short is `.malformedData`.
    ///
    /// A frame that times syllables or words marks where a new line starts with a line break at
    /// the start of the text: such entries are joined into lines, each at its first entry's time.
    static func synchronised(_ body: [UInt8]) throws(PlaybackError) -> Synchronised {
        guard body.count >= 6, let encoding = body.first, encoding <= 3 else {
            throw PlaybackError(.malformedData, underlying: "SYLT frame too short or of an unknown encoding")
        }
        switch body[4] {
        case 2: break
        case 1: throw PlaybackError(.unsupportedFormat, underlying: "SYLT times in MPEG frames")
        default: throw PlaybackError(.unsupportedFormat, underlying: "SYLT time stamp format \(body[4])")
        }
        let wide = encoding == 1 || encoding == 2
        var index = 6
        guard let afterDescriptor = terminator(in: body, from: index, wide: wide) else {
            throw PlaybackError(.malformedData, underlying: "SYLT descriptor not terminated")
        }
        index = afterDescriptor
        var entries: [(start: TimeInterval, text: String)] = []
        while index < body.count, entries.count < Transcript.maxCues {
            guard let next = terminator(in: body, from: index, wide: wide), next + 4 <= body.count else {
                throw PlaybackError(.malformedData, underlying: "SYLT entry cut short")
            }
            let textEnd = next - (wide ? 2 : 1)
            // UTF-16 with a byte order mark: every entry carries its own (big-endian without).
            let text = ID3v2TextFrames.decode(Array(body[index..<textEnd]), encoding: encoding)
            let milliseconds = ID3v2TextFrames.bigEndian32(body[next..<(next + 4)])
            entries.append((Double(milliseconds) / 1_000, text))
            index = next + 4
        }
        return Synchronised(contentType: body[5], lines: joinedIntoLines(entries))
    }

    /// Entries that mark new lines with a leading line break (word or syllable timing) joined
    /// into lines; otherwise each entry is a line.
    static func joinedIntoLines(_ entries: [(start: TimeInterval, text: String)]) -> [(start: TimeInterval, text: String)] {
        let marksLines = entries.dropFirst().contains { $0.text.first?.isNewline == true }
        guard marksLines else { return entries.map { ($0.start, $0.text.trimmingCharacters(in: .whitespacesAndNewlines)) } }
        var lines: [(start: TimeInterval, text: String)] = []
        for entry in entries {
            if lines.isEmpty || entry.text.first?.isNewline == true {
                lines.append((entry.start, entry.text.trimmingCharacters(in: .newlines)))
            } else {
                lines[lines.count - 1].text += entry.text
            }
        }
        return lines.map { ($0.start, $0.text.trimmingCharacters(in: .whitespaces)) }
    }

    /// A `USLT` body's text: encoding, language (3), descriptor, then the lyrics; nil when empty.
    static func unsynchronised(_ body: [UInt8]) -> String? {
        guard let encoding = body.first, encoding <= 3, body.count > 4 else { return nil }
        let wide = encoding == 1 || encoding == 2
        guard let start = terminator(in: body, from: 4, wide: wide) else { return nil }
        var text = Array(body[start...])
        while text.last == 0 { text.removeLast() }
        if wide, text.count % 2 == 1 { text.append(0) }
        let decoded = ID3v2TextFrames.decode(text, encoding: encoding)
        return decoded.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : decoded
    }

    /// The index just past the string terminator (NUL, or two NULs at an even distance for
    /// UTF-16) at or after `from`; nil when there is none.
    static func terminator(in bytes: [UInt8], from: Int, wide: Bool) -> Int? {
        var index = from
        if wide {
            while index + 1 < bytes.count {
                if bytes[index] == 0 && bytes[index + 1] == 0 { return index + 2 }
                index += 2
            }
            return nil
        }
        while index < bytes.count {
            if bytes[index] == 0 { return index + 1 }
            index += 1
        }
        return nil
    }

    private static func read(_ handle: FileHandle, at offset: Int, count: Int) -> [UInt8]? {
        guard (try? handle.seek(toOffset: UInt64(offset))) != nil, let data = try? handle.read(upToCount: count), data.count == count else {
            return nil
        }
        return [UInt8](data)
    }
}
