import Foundation

/// A WAV file read back for checks: its header fields and its samples as interleaved Floats.
struct WAVFile: Sendable {
    /// The format tag in the `fmt ` chunk (1 PCM, 3 IEEE float, 0xFFFE extensible).
    var rawFormatTag: UInt16
    /// The effective format: for `WAVE_FORMAT_EXTENSIBLE`, the sub-format's tag.
    var formatTag: UInt16
    var channels: Int
    var sampleRate: Int
    var byteRate: Int
    var blockAlign: Int
    var bitsPerSample: Int
    /// The RIFF chunk's size field (file size - 8 in a finished file).
    var riffSize: UInt32
    /// The data chunk's size field as written (streaming writers may leave 0 or 0xFFFFFFFF).
    var dataSize: UInt32
    /// The `fact` chunk's sample length, when present.
    var factSampleLength: UInt32?
    /// Chunk IDs in file order after "WAVE".
    var chunkIDs: [String]
    /// The file's size in bytes.
    var fileSize: Int
    /// Interleaved samples; 16-bit PCM is scaled by 1/32768.
    var samples: [Float]

    var frameCount: Int { channels > 0 ? samples.count / channels : 0 }
    var duration: Double { sampleRate > 0 ? Double(frameCount) / Double(sampleRate) : 0 }

    /// One channel's samples.
    func channel(_ index: Int) -> [Float] {
        stride(from: index, to: samples.count, by: channels).map { samples[$0] }
    }
}

struct WAVReaderError: Error, CustomStringConvertible {
    var description: String
}

/// Reads RIFF/WAVE files with 16-bit PCM or 32-bit float samples (also inside
/// `WAVE_FORMAT_EXTENSIBLE`, as libsndfile writes for some layouts). A data chunk whose size is
/// 0, 0xFFFFFFFF or past the end of the file (an unfinished recording) is read to the end.
enum WAVReader {
    static func read(path: String) throws -> WAVFile {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw WAVReaderError(description: "cannot read \(path): \(error)")
        }
        return try parse([UInt8](data), name: path)
    }

    static func parse(_ bytes: [UInt8], name: String = "WAV") throws -> WAVFile {
        func fail(_ why: String) -> WAVReaderError { WAVReaderError(description: "\(name): \(why)") }
        func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        func tag(_ at: Int) -> String { String(decoding: bytes[at..<at + 4], as: UTF8.self) }

        guard bytes.count >= 12, tag(0) == "RIFF", tag(8) == "WAVE" else { throw fail("not a RIFF/WAVE file") }
        var file = WAVFile(
            rawFormatTag: 0, formatTag: 0, channels: 0, sampleRate: 0, byteRate: 0, blockAlign: 0, bitsPerSample: 0,
            riffSize: u32(4), dataSize: 0, factSampleLength: nil, chunkIDs: [], fileSize: bytes.count, samples: [])
        var haveFormat = false
        var position = 12
        while position + 8 <= bytes.count {
            let id = tag(position)
            let size = Int(u32(position + 4))
            let body = position + 8
            file.chunkIDs.append(id)
            switch id {
            case "fmt ":
                guard size >= 16, body + 16 <= bytes.count else { throw fail("short fmt chunk") }
                file.rawFormatTag = u16(body)
                file.formatTag = file.rawFormatTag
                file.channels = Int(u16(body + 2))
                file.sampleRate = Int(u32(body + 4))
                file.byteRate = Int(u32(body + 8))
                file.blockAlign = Int(u16(body + 12))
                file.bitsPerSample = Int(u16(body + 14))
                if file.rawFormatTag == 0xFFFE, size >= 40, body + 26 <= bytes.count {
                    file.formatTag = u16(body + 24)  // the sub-format GUID starts with the tag
                }
                haveFormat = true
            case "fact":
                if size >= 4, body + 4 <= bytes.count { file.factSampleLength = u32(body) }
            case "data":
                guard haveFormat else { throw fail("data chunk before fmt chunk") }
                file.dataSize = UInt32(size)
                let available = bytes.count - body
                let length = (size == 0 || size > available) ? available : size
                file.samples = try decode(bytes[body..<body + length], file: file, fail: fail)
                return file
            default:
                break
            }
            position = body + size + (size & 1)
        }
        throw fail("no data chunk")
    }

    private static func decode(
        _ data: ArraySlice<UInt8>, file: WAVFile, fail: (String) -> WAVReaderError
    ) throws -> [Float] {
        switch (file.formatTag, file.bitsPerSample) {
        case (1, 16):
            let count = data.count / 2
            var out = [Float](repeating: 0, count: count)
            data.withUnsafeBytes { raw in
                for i in 0..<count {
                    let value = Int16(bitPattern: UInt16(raw[2 * i]) | UInt16(raw[2 * i + 1]) << 8)
                    out[i] = Float(value) / 32768
                }
            }
            return out
        case (3, 32):
            let count = data.count / 4
            var out = [Float](repeating: 0, count: count)
            data.withUnsafeBytes { raw in
                for i in 0..<count {
                    let bits = UInt32(raw[4 * i]) | UInt32(raw[4 * i + 1]) << 8 | UInt32(raw[4 * i + 2]) << 16
                        | UInt32(raw[4 * i + 3]) << 24
                    out[i] = Float(bitPattern: bits)
                }
            }
            return out
        default:
            throw fail("unsupported format tag \(file.formatTag) with \(file.bitsPerSample) bits")
        }
    }
}
