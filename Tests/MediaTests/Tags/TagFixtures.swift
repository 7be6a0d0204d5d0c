import Foundation
import TestProcesses

/// Song files for the tag tests: made by `ffmpeg` in a folder of their own, or built byte by byte
/// where ffmpeg cannot write the case (a Latin-1 ID3v2.3 frame, repeated Vorbis comments).
struct TagFixtures: ~Copyable {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-tags-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// One second of a sine tone: the input every song file is made from.
    static let tone = ["-f", "lavfi", "-i", "sine=frequency=440:duration=1"]

    /// Runs ffmpeg with `arguments` into `name` in the folder.
    func make(_ name: String, _ arguments: [String]) throws -> URL {
        let data = try FFmpegFixture.make(arguments, fileName: name).get()
        return try write(name, data)
    }

    func write(_ name: String, _ data: Data) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    /// `-metadata key=value` arguments.
    static func metadata(_ pairs: [(String, String)]) -> [String] {
        pairs.flatMap { ["-metadata", "\($0.0)=\($0.1)"] }
    }

    /// An ID3v2.3 tag of text frames, each Latin-1 (encoding byte 0) as given.
    static func id3v23(_ frames: [(id: String, latin1: [UInt8])]) -> Data {
        var body = Data()
        for frame in frames {
            let content = [UInt8(0)] + frame.latin1
            body.append(contentsOf: Array(frame.id.utf8))
            body.append(contentsOf: bigEndian32(content.count))
            body.append(contentsOf: [0, 0])
            body.append(contentsOf: content)
        }
        var tag = Data(Array("ID3".utf8) + [3, 0, 0])
        let size = body.count  // syncsafe: 7 bits a byte
        tag.append(contentsOf: [UInt8(size >> 21 & 0x7F), UInt8(size >> 14 & 0x7F), UInt8(size >> 7 & 0x7F), UInt8(size & 0x7F)])
        return tag + body
    }

    /// An ID3v2 tag (`version` 3 or 4) of frames given as their id and body (encoding byte
    /// included); ID3v2.4 frame sizes are syncsafe, ID3v2.3's plain.
    static func id3(version: UInt8, _ frames: [(id: String, body: [UInt8])]) -> Data {
        var body = Data()
        for frame in frames {
            body.append(contentsOf: Array(frame.id.utf8))
            body.append(contentsOf: version == 4 ? syncsafe(frame.body.count) : bigEndian32(frame.body.count))
            body.append(contentsOf: [0, 0])
            body.append(contentsOf: frame.body)
        }
        return Data(Array("ID3".utf8) + [version, 0, 0] + syncsafe(body.count)) + body
    }

    static func syncsafe(_ size: Int) -> [UInt8] {
        [UInt8(size >> 21 & 0x7F), UInt8(size >> 14 & 0x7F), UInt8(size >> 7 & 0x7F), UInt8(size & 0x7F)]
    }

    /// A FLAC file whose Vorbis comment block is `comments` (each "KEY=value", repeats kept),
    /// made from `flac`, a FLAC file ffmpeg wrote: its other blocks and audio are kept.
    static func flac(_ flac: Data, comments: [String]) throws -> Data {
        let bytes = [UInt8](flac)
        guard bytes.starts(with: Array("fLaC".utf8)) else { throw FixtureError("not a FLAC file") }
        var offset = 4
        var blocks: [(type: UInt8, body: [UInt8])] = []
        var last = false
        while !last, offset + 4 <= bytes.count {
            last = bytes[offset] & 0x80 != 0
            let type = bytes[offset] & 0x7F
            let length = Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let body = Array(bytes[(offset + 4)..<(offset + 4 + length)])
            if type != 4 && type != 1 { blocks.append((type, body)) }  // drop the old comments and padding
            offset += 4 + length
        }
        var comment: [UInt8] = littleEndian32(6) + Array("tonear".utf8) + littleEndian32(comments.count)
        for text in comments { comment += littleEndian32(text.utf8.count) + Array(text.utf8) }
        blocks.append((4, comment))
        var out: [UInt8] = Array("fLaC".utf8)
        for (index, block) in blocks.enumerated() {
            let flag: UInt8 = index == blocks.count - 1 ? 0x80 : 0
            out += [flag | block.type, UInt8(block.body.count >> 16 & 0xFF), UInt8(block.body.count >> 8 & 0xFF), UInt8(block.body.count & 0xFF)]
            out += block.body
        }
        return Data(out + bytes[offset...])
    }

    static func bigEndian32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func littleEndian32(_ value: Int) -> [UInt8] { bigEndian32(value).reversed() }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
