import Foundation
import PlayerCore

/// The text frames of an ID3v2.3/2.4 tag at the start of a file, every value of each: ID3v2.4
/// separates a frame's values with NUL (and some taggers do in ID3v2.3), and FFmpeg 5.1 keeps
/// only the first. `TagReader` takes the lists from here for list tags (artists, genres...).
///
/// Reads only what it needs, bounded: the tag's header, then frame headers, reading a frame's
/// body only for text frames (`T...`, `TXXX`) of at most `maxFrameBytes`, and at most `maxFrames`
/// frames; a picture or any large frame is skipped over, not read. A tag this reader does not
/// follow (unsynchronised, compressed or encrypted frames, ID3v2.2) gives nothing, and FFmpeg's
/// reading stands.
enum ID3v2TextFrames {
    static let maxFrameBytes = MediaLimits.maxTagValueBytes * MediaLimits.maxValuesPerTag
    static let maxFrames = 256

    /// Each text frame's key (the frame id, or a TXXX frame's description) and its values.
    static func read(_ url: URL) -> [(key: String, values: [String])] {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return [] }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 10), header.count == 10, header.starts(with: Array("ID3".utf8)) else { return [] }
        let bytes = [UInt8](header)
        let version = bytes[3]
        let flags = bytes[5]
        guard version == 3 || version == 4, flags & 0x80 == 0 else { return [] }  // no tag-wide unsynchronisation
        guard let tagSize = syncsafe(bytes[6..<10]) else { return [] }
        var offset = 10
        let end = 10 + tagSize
        if flags & 0x40 != 0 {  // an extended header: skipped
            guard let sizeBytes = read(handle, at: offset, count: 4) else { return [] }
            let size = version == 4 ? syncsafe(sizeBytes[...]) : bigEndian32(sizeBytes[...]) + 4
            guard let size, size >= 4, size <= tagSize else { return [] }
            offset += size
        }
        var frames: [(key: String, values: [String])] = []
        var count = 0
        while offset + 10 <= end, count < maxFrames {
            count += 1
            guard let frameHeader = read(handle, at: offset, count: 10) else { break }
            guard frameHeader[0] != 0 else { break }  // padding
            let id = String(decoding: frameHeader[0..<4], as: UTF8.self)
            guard id.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }) else { break }
            let size = version == 4 ? syncsafe(frameHeader[4..<8]) : bigEndian32(frameHeader[4..<8])
            guard let size, offset + 10 + size <= end else { break }
            let formatFlags = frameHeader[9]
            // Compressed, encrypted, unsynchronised or with a data length (v2.4: 0x08, 0x04, 0x02,
            // 0x01; v2.3: 0x80, 0x40): not followed.
            let plain = version == 4 ? formatFlags & 0x0F == 0 : formatFlags & 0xC0 == 0
            if id.hasPrefix("T"), plain, size > 1, size <= maxFrameBytes, let body = read(handle, at: offset + 10, count: size) {
                if let frame = textFrame(id: id, body: body) { frames.append(frame) }
            }
            offset += 10 + size
        }
        return frames
    }

    /// A text frame's values; for TXXX the first string is the key.
    static func textFrame(id: String, body: [UInt8]) -> (key: String, values: [String])? {
        guard let encoding = body.first, encoding <= 3 else { return nil }
        var strings = split(Array(body.dropFirst()), wide: encoding == 1 || encoding == 2).map { decode($0, encoding: encoding) }
        // A value list ends with at most one terminating NUL: drop what it leaves.
        while strings.last?.isEmpty == true { strings.removeLast() }
        if id == "TXXX" {
            guard !strings.isEmpty else { return nil }
            let key = strings.removeFirst()
            return key.isEmpty ? nil : (key, strings)
        }
        return (id, strings)
    }

    /// The strings between NULs: single bytes, or two-byte units for UTF-16.
    static func split(_ bytes: [UInt8], wide: Bool) -> [[UInt8]] {
        guard wide else { return bytes.split(separator: 0, omittingEmptySubsequences: false).map(Array.init) }
        var parts: [[UInt8]] = []
        var current: [UInt8] = []
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == 0 && bytes[index + 1] == 0 {
                parts.append(current)
                current = []
            } else {
                current += [bytes[index], bytes[index + 1]]
            }
            index += 2
        }
        parts.append(current)
        return parts
    }

    /// Text in one of ID3's four encodings; invalid sequences replaced.
    static func decode(_ bytes: [UInt8], encoding: UInt8) -> String {
        switch encoding {
        case 0: return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        case 3: return String(decoding: bytes, as: UTF8.self)
        default:
            var units = stride(from: 0, to: bytes.count - 1, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
            var littleEndian = false
            if encoding == 1, let first = units.first {
                if first == 0xFFFE { littleEndian = true }
                if first == 0xFFFE || first == 0xFEFF { units.removeFirst() }
            }
            if littleEndian { units = units.map { $0.byteSwapped } }
            return String(decoding: units, as: UTF16.self)
        }
    }

    private static func read(_ handle: FileHandle, at offset: Int, count: Int) -> [UInt8]? {
        guard (try? handle.seek(toOffset: UInt64(offset))) != nil, let data = try? handle.read(upToCount: count), data.count == count else {
            return nil
        }
        return [UInt8](data)
    }

    /// A 32-bit big-endian integer (ID3v2.3's sizes).
    static func bigEndian32(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.reduce(0) { $0 << 8 | Int($1) }
    }

    /// A 28-bit syncsafe integer (7 bits a byte); nil when a byte has its top bit set.
    static func syncsafe(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count == 4, bytes.allSatisfy({ $0 & 0x80 == 0 }) else { return nil }
        return bytes.reduce(0) { $0 << 7 | Int($1) }
    }
}
