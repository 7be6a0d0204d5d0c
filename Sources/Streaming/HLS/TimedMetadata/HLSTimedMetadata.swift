import Foundation
import PlayerCore

/// "Now playing" titles from HLS timed metadata (RFC 8216 §3.4, Apple's "Timed Metadata for HTTP
/// Live Streaming").
///
/// Live HLS radio has no ICY titles: stations that show the song put it in ID3v2 tags carried in
/// the segments themselves, at the start of packed-audio segments (ADTS AAC, MP3, AC-3) or as an
/// ID3 elementary stream (stream_type 0x15) of MPEG-TS segments. Hand-written because these are a
/// few fixed layouts and FFmpeg's demuxers only hand Tonearm audio. Pure, so every case, hostile
/// bytes from the network included, is tested without a network: every length is checked against
/// the bytes that are there, the work is bounded (tag, frame, text and PES sizes and counts
/// below), and every text is sanitised where it comes out.
package enum HLSTimedMetadata {
    /// How a segment carries its ID3 tags.
    package enum Container: Sendable, Equatable {
        /// Raw audio (ADTS AAC, MP3, AC-3) whose segments begin with one or more ID3v2 tags.
        case packedAudio
        /// An MPEG-2 transport stream with a timed-metadata elementary stream carrying ID3 in PES.
        case mpegTS
    }

    /// The last title in a segment's timed metadata: "Artist - Title" when a tag has both TPE1 and
    /// TIT2, else TIT2 alone (or a TXXX "StreamTitle"/"title" when there is no TIT2); nil when none.
    package static func title(in segment: Data, container: Container) -> String? {
        let bytes = [UInt8](segment)[...]
        switch container {
        case .packedAudio: return titleInConsecutiveTags(bytes)
        case .mpegTS: return titleInTransportStream(bytes)
        }
    }

    /// The title in one ID3v2 tag (header included), by the same rules as `title(in:container:)`.
    static func title(fromID3 tag: some Collection<UInt8>) -> String? {
        let bytes = [UInt8](tag.prefix(Limits.tagHeaderBytes + Limits.maxTagBytes))[...]
        guard let header = id3Header(bytes) else { return nil }
        return titleInTag(bytes, header: header)
    }

    /// What bounds the work on one segment, whatever its bytes claim.
    enum Limits {
        static let tagHeaderBytes = 10
        /// Tag bytes walked; frame headers are hopped over, so a cover picture costs nothing.
        static let maxTagBytes = 256 * 1024
        static let maxFramesPerTag = 256
        /// Consecutive tags read at the start of a packed-audio segment or PES payload.
        static let maxConsecutiveTags = 16
        /// Text bytes decoded per frame: far beyond the 256 characters the sanitiser keeps.
        static let maxTextBytes = 4096
        /// PES bytes kept per metadata packet (Apple's tags are a few hundred bytes).
        static let maxPESBytes = 64 * 1024
        static let maxProgramPIDs = 16
        static let maxMetadataPIDs = 8
        /// How far a lost transport-stream sync is looked for before giving up.
        static let maxResyncBytes = 64 * 1024
    }

    // MARK: - ID3v2 (packed audio; the tags in MPEG-TS are read by the same code)

    struct ID3Header {
        let major: UInt8
        let flags: UInt8
        /// The size after the 10-byte header, as the tag claims it.
        let size: Int

        /// Header, body and a v2.4 footer: where the next tag would start.
        var totalLength: Int { Limits.tagHeaderBytes + size + (major == 4 && flags & 0x10 != 0 ? 10 : 0) }
    }

    /// The header of the ID3v2 tag at the start of `bytes`, or nil when there is none there.
    static func id3Header(_ bytes: ArraySlice<UInt8>) -> ID3Header? {
        let i = bytes.startIndex
        guard bytes.count >= Limits.tagHeaderBytes, bytes[i] == 0x49, bytes[i + 1] == 0x44, bytes[i + 2] == 0x33 else { return nil }
        let major = bytes[i + 3]
        guard (2...4).contains(major), bytes[i + 4] != 0xFF, let size = syncsafe(bytes, at: i + 6) else { return nil }
        return ID3Header(major: major, flags: bytes[i + 5], size: size)
    }

    /// The title of the last tag that has one among the tags packed one after another at the start.
    static func titleInConsecutiveTags(_ bytes: ArraySlice<UInt8>) -> String? {
        var rest = bytes
        var found: String?
        var tags = 0
        while tags < Limits.maxConsecutiveTags, let header = id3Header(rest) {
            tags += 1
            if let title = titleInTag(rest, header: header) { found = title }
            guard header.totalLength < rest.count else { break }
            rest = rest.dropFirst(header.totalLength)
        }
        return found
    }

    /// The title in the tag at the start of `bytes`, whose header is `header`.
    static func titleInTag(_ bytes: ArraySlice<UInt8>, header: ID3Header) -> String? {
        let available = bytes.count - Limits.tagHeaderBytes
        var body = ArraySlice(bytes.dropFirst(Limits.tagHeaderBytes).prefix(min(header.size, Limits.maxTagBytes, available)))
        let unsynchronised = header.flags & 0x80 != 0
        // Before v2.4 unsynchronisation covers the whole tag; from v2.4 on, each frame.
        if unsynchronised && header.major < 4 { body = resynchronised(body) }
        if header.flags & 0x40 != 0 {
            // v2.2: the tag is compressed, with no defined scheme. v2.3/2.4: an extended header.
            guard header.major >= 3, body.count >= 4 else { return nil }
            let skip: Int
            if header.major == 3 {
                skip = 4 + bigEndian(body, at: body.startIndex, count: 4)
            } else {
                guard let size = syncsafe(body, at: body.startIndex) else { return nil }
                skip = size
            }
            guard skip >= 4, skip <= body.count else { return nil }
            body = body.dropFirst(skip)
        }
        var fields = TagFields()
        walkFrames(body, major: header.major, tagUnsynchronised: unsynchronised, into: &fields)
        return fields.combined
    }

    /// The texts of one tag that make a title.
    struct TagFields {
        var title: String?
        var artist: String?
        var streamTitle: String?

        /// "Artist - Title", the title alone, or the stream title, sanitised.
        var combined: String? {
            if let title = TextSanitizer.optionalSingleLine(title) {
                guard let artist = TextSanitizer.optionalSingleLine(artist) else { return title }
                return TextSanitizer.optionalSingleLine("\(artist) - \(title)")
            }
            return TextSanitizer.optionalSingleLine(streamTitle)
        }
    }

    private static func walkFrames(_ body: ArraySlice<UInt8>, major: UInt8, tagUnsynchronised: Bool, into fields: inout TagFields) {
        let idLength = major == 2 ? 3 : 4
        let headerLength = major == 2 ? 6 : 10
        var position = body.startIndex
        var frames = 0
        while frames < Limits.maxFramesPerTag, body.endIndex - position >= headerLength {
            frames += 1
            let id = body[position..<position + idLength]
            // Padding (zeros) or bytes that are no frame ID end the frames.
            guard id.allSatisfy({ (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }) else { return }
            let size: Int
            var formatFlags: UInt8 = 0
            switch major {
            case 2:
                size = bigEndian(body, at: position + 3, count: 3)
            case 3:
                size = bigEndian(body, at: position + 4, count: 4)
                formatFlags = body[position + 9]
            default:
                // v2.4 sizes are syncsafe; some writers put plain ones, which have a high bit set.
                size = syncsafe(body, at: position + 4) ?? bigEndian(body, at: position + 4, count: 4)
                formatFlags = body[position + 9]
            }
            let dataStart = position + headerLength
            guard size <= body.endIndex - dataStart else { return }
            position = dataStart + size
            guard let kind = FrameKind(id) else { continue }
            guard var data = frameData(body[dataStart..<dataStart + size], major: major, formatFlags: formatFlags, tagUnsynchronised: tagUnsynchronised)
            else { continue }
            data = data.prefix(Limits.maxTextBytes)
            switch kind {
            case .title: fields.title = fields.title ?? firstText(data)
            case .artist: fields.artist = fields.artist ?? firstText(data)
            case .userText: fields.streamTitle = fields.streamTitle ?? streamTitle(data)
            }
        }
    }

    /// The frames a title is made of, by their v2.3/2.4 and v2.2 IDs.
    enum FrameKind {
        case title, artist, userText

        init?(_ id: ArraySlice<UInt8>) {
            switch String(decoding: id, as: UTF8.self) {
            case "TIT2", "TT2": self = .title
            case "TPE1", "TP1": self = .artist
            case "TXXX", "TXX": self = .userText
            default: return nil
            }
        }
    }

    /// A frame's content with its format flags undone, or nil for compressed or encrypted frames.
    private static func frameData(_ data: ArraySlice<UInt8>, major: UInt8, formatFlags: UInt8, tagUnsynchronised: Bool) -> ArraySlice<UInt8>? {
        var data = data
        switch major {
        case 3:
            guard formatFlags & 0xC0 == 0 else { return nil }  // compression, encryption
            if formatFlags & 0x20 != 0 { data = data.dropFirst() }  // group identifier
        case 4:
            guard formatFlags & 0x0C == 0 else { return nil }  // compression, encryption
            if formatFlags & 0x40 != 0 { data = data.dropFirst() }  // group identifier
            if formatFlags & 0x01 != 0 { data = data.dropFirst(4) }  // data length indicator
            if formatFlags & 0x02 != 0 || tagUnsynchronised { data = resynchronised(data) }
        default:
            break
        }
        return data
    }

    /// The first value of a text frame (encoding byte, then NUL-separated values).
    private static func firstText(_ data: ArraySlice<UInt8>) -> String? {
        guard let encoding = data.first else { return nil }
        return decodeString(data.dropFirst(), encoding: encoding)?.text
    }

    /// The value of a TXXX frame whose description names a whole stream title.
    private static func streamTitle(_ data: ArraySlice<UInt8>) -> String? {
        guard let encoding = data.first, let description = decodeString(data.dropFirst(), encoding: encoding) else { return nil }
        let name = description.text.trimmingCharacters(in: .whitespaces).lowercased()
        guard name == "streamtitle" || name == "title" else { return nil }
        return decodeString(description.rest, encoding: encoding)?.text
    }

    /// Decodes the string at the start of `bytes` up to its NUL terminator (or the end) and
    /// returns it with the bytes after the terminator; nil for an unknown encoding.
    private static func decodeString(_ bytes: ArraySlice<UInt8>, encoding: UInt8) -> (text: String, rest: ArraySlice<UInt8>)? {
        switch encoding {
        case 0, 3:
            let end = bytes.firstIndex(of: 0) ?? bytes.endIndex
            let value = bytes[bytes.startIndex..<end]
            let rest = bytes[min(end + 1, bytes.endIndex)...]
            if encoding == 3 { return (String(decoding: value, as: UTF8.self), rest) }
            // ISO-8859-1 is the first 256 code points of Unicode.
            return (String(String.UnicodeScalarView(value.map { Unicode.Scalar($0) })), rest)
        case 1, 2:
            var end = bytes.endIndex
            var index = bytes.startIndex
            while index + 1 < bytes.endIndex {
                if bytes[index] == 0 && bytes[index + 1] == 0 { end = index; break }
                index += 2
            }
            let rest = bytes[min(end + 2, bytes.endIndex)...]
            return (utf16(bytes[bytes.startIndex..<end]), rest)
        default:
            return nil
        }
    }

    /// UTF-16 in the byte order its BOM gives, big-endian without one (encodings 1 and 2).
    private static func utf16(_ bytes: ArraySlice<UInt8>) -> String {
        var bytes = bytes
        var littleEndian = false
        if bytes.count >= 2 {
            let first = bytes[bytes.startIndex], second = bytes[bytes.startIndex + 1]
            if first == 0xFF && second == 0xFE {
                littleEndian = true
                bytes = bytes.dropFirst(2)
            } else if first == 0xFE && second == 0xFF {
                bytes = bytes.dropFirst(2)
            }
        }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            let high = littleEndian ? bytes[index + 1] : bytes[index]
            let low = littleEndian ? bytes[index] : bytes[index + 1]
            units.append(UInt16(high) << 8 | UInt16(low))
            index += 2
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// Undoes ID3 unsynchronisation: every 0xFF 0x00 pair was written for a lone 0xFF.
    static func resynchronised(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var previous: UInt8 = 0
        for byte in bytes {
            if !(previous == 0xFF && byte == 0x00) { out.append(byte) }
            previous = byte
        }
        return out[...]
    }

    /// A 28-bit syncsafe integer (four bytes of seven bits), nil when a high bit is set or the
    /// bytes run out.
    static func syncsafe(_ bytes: ArraySlice<UInt8>, at index: Int) -> Int? {
        guard index >= bytes.startIndex, bytes.endIndex - index >= 4 else { return nil }
        var value = 0
        for byte in bytes[index..<index + 4] {
            guard byte < 0x80 else { return nil }
            value = value << 7 | Int(byte)
        }
        return value
    }

    /// A big-endian unsigned integer of `count` (at most 4) bytes; the caller checked the bounds.
    static func bigEndian(_ bytes: ArraySlice<UInt8>, at index: Int, count: Int) -> Int {
        bytes[index..<index + count].reduce(0) { $0 << 8 | Int($1) }
    }
}
