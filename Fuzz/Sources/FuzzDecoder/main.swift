import Foundation
import FuzzSupport
import Media
import PlayerCore

// FFmpegDecoder over a ByteSource (FFmpeg's custom I/O), as a network stream or an episode reaches
// it. Input: one byte choosing a seekable or a live source, the format hint and how the source
// hands out bytes; then the bytes.
//
// Contract: opening and decoding either work or throw a `PlaybackError` of a documented code;
// decoded samples are finite; the decoder reads nothing after the source's end.
@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let (header, body) = fuzzSplit(fuzzBytes(data, size), header: 1)
    let hints: [String?] = [nil, "mp3", "audio/aac", "ogg", "wav", "flac", "audio/mpeg", "bogus"]
    let hint = hints[Int(header[0] >> 1 & 0x7)]
    // Reads of a few bytes are legal but cost seconds per input on a seekable source (FFmpeg
    // seeks back and forth over a lying ID3 header, refilling byte by byte), which would starve
    // the fuzzer; 5 still splits every header and frame.
    let chunk = [5, 512, 4_096, 65_536][Int(header[0] >> 4 & 0x3)]
    let source: MemorySource = header[0] & 1 == 0 ? MemorySource(body, chunk: chunk) : SeekableMemorySource(body, chunk: chunk)
    let codes: Set<PlaybackError.Code> = [.unknown, .unsupportedFormat, .wrongContentType, .corruptData, .malformedData]
    do {
        let decoder = try FFmpegDecoder(source: source, formatHint: hint, probeSize: 32_768)
        let frames = 1_024
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: frames * 2)
        defer { buffer.deallocate() }
        // A bounded amount of audio: enough to run the decoder and the resampler on every packet
        // of a small input, not so much that a long silent stream stalls the fuzzer.
        for round in 0..<64 {
            if round == 8, decoder.isSeekable {
                do { try decoder.seek(to: Double(header[0]) / 64) } catch { fuzzCheck(error, isOneOf: codes) }
            }
            let count = try decoder.read(into: buffer, maxFrames: frames)
            fuzzCheck((0...frames).contains(count), "read \(count) frames into \(frames)")
            if count == 0 { break }
            for index in 0..<(count * 2) where !buffer[index].isFinite {
                fuzzCheck(false, "sample \(index) is \(buffer[index])")
            }
        }
        fuzzCheck(decoder.duration.map { $0.isFinite && $0 >= 0 } ?? true, "duration \(String(describing: decoder.duration))")
    } catch {
        fuzzCheck(error, isOneOf: codes)
    }
    return 0
}

/// A live stream held in memory: hands out at most `chunk` bytes per read, then the end.
class MemorySource: ByteSource, @unchecked Sendable {
    let bytes: [UInt8]
    let chunk: Int
    var offset = 0

    init(_ bytes: [UInt8], chunk: Int) {
        self.bytes = bytes
        self.chunk = chunk
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlaybackError) -> Int {
        let count = min(chunk, buffer.count, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { all in
            buffer.baseAddress!.copyMemory(from: all.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }

    func close() {}
}

/// The same bytes as a file behind a server that honours `Range`.
final class SeekableMemorySource: MemorySource, SeekableByteSource, @unchecked Sendable {
    var size: Int64? { Int64(bytes.count) }

    func seek(to offset: Int64) throws(PlaybackError) {
        fuzzCheck(offset >= 0, "seek to \(offset)")
        self.offset = Int(min(offset, Int64(bytes.count)))
    }
}

runLibFuzzer(fuzzDecoder)
