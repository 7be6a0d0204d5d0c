import Foundation
import PlayerCore
import TestProcesses
import Testing

@testable import AudioEngine

/// A private temporary directory removed when the test ends.
final class SinkTestDirectory: @unchecked Sendable {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("tonearm-sinks-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { "\(path)/\(name)" }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Interleaved stereo test signal: a ramp from -1 to 1 on the left, a 1 kHz sine at 0.8 on the right.
private func testSignal(frames: Int) -> [Float] {
    var samples = [Float](repeating: 0, count: frames * 2)
    for i in 0..<frames {
        samples[2 * i] = -1 + 2 * Float(i) / Float(frames - 1)
        samples[2 * i + 1] = 0.8 * Float(sin(2 * Double.pi * 1000 * Double(i) / 48_000))
    }
    return samples
}

private func write(_ samples: [Float], to sink: WAVFileSink, chunk: Int = 1024) throws {
    let frames = samples.count / 2
    try samples.withUnsafeBufferPointer { buffer in
        var offset = 0
        while offset < frames {
            let n = min(chunk, frames - offset)
            try sink.write(buffer.baseAddress! + 2 * offset, frames: n)
            offset += n
        }
    }
}

@Suite("WAVFileSink", .blocking)
struct WAVFileSinkTests {
    @Test("float32: header fields, fact chunk and exact samples")
    func float32RoundTrip() throws {
        let dir = try SinkTestDirectory()
        let path = dir.file("float.wav")
        let signal = testSignal(frames: 10_000)
        let sink = WAVFileSink(path: path, encoding: .float32)
        #expect(sink.kind == "WAV file")
        #expect(!sink.isRealtime)
        try sink.open()
        try write(signal, to: sink)
        try sink.drain()
        #expect(sink.framesWritten == 10_000)
        sink.close()

        let wav = try WAVReader.read(path: path)
        #expect(wav.rawFormatTag == 3)
        #expect(wav.sampleRate == 48_000)
        #expect(wav.channels == 2)
        #expect(wav.bitsPerSample == 32)
        #expect(wav.blockAlign == 8)
        #expect(wav.byteRate == 48_000 * 8)
        #expect(wav.chunkIDs == ["fmt ", "fact", "data"])
        #expect(wav.factSampleLength == 10_000)
        #expect(wav.dataSize == 80_000)
        #expect(Int(wav.riffSize) == wav.fileSize - 8)
        #expect(wav.fileSize == 58 + 80_000)
        #expect(wav.samples == signal)
    }

    @Test("pcm16: header fields and samples within one step")
    func pcm16RoundTrip() throws {
        let dir = try SinkTestDirectory()
        let path = dir.file("pcm.wav")
        let signal = testSignal(frames: 9_999)
        let sink = WAVFileSink(path: path, encoding: .pcm16)
        try sink.open()
        try write(signal, to: sink, chunk: 333)
        sink.close()

        let wav = try WAVReader.read(path: path)
        #expect(wav.rawFormatTag == 1)
        #expect(wav.sampleRate == 48_000)
        #expect(wav.channels == 2)
        #expect(wav.bitsPerSample == 16)
        #expect(wav.blockAlign == 4)
        #expect(wav.byteRate == 48_000 * 4)
        #expect(wav.chunkIDs == ["fmt ", "data"])
        #expect(wav.dataSize == 9_999 * 4)
        #expect(Int(wav.riffSize) == wav.fileSize - 8)
        #expect(wav.fileSize == 44 + 9_999 * 4)
        #expect(wav.frameCount == 9_999)
        var worst: Float = 0
        for (written, read) in zip(signal, wav.samples) {
            // The reader scales by 1/32768, the writer by 32767: compare on the writer's scale.
            worst = max(worst, abs(read * 32768 / 32767 - written))
        }
        #expect(worst <= 1 / 32767)
        #expect(wav.samples.first.map { Int(($0 * 32768).rounded()) } == -32767)
    }

    @Test("pcm16 clips beyond full scale and rounds to nearest", arguments: [
        (Float(1.5), Int16(32767)), (-7, -32767), (1, 32767), (0.5, 16384), (-0.5, -16384), (.nan, 0),
        (Float(1) / 65534, 1), (Float(0.49) / 32767, 0),
    ] as [(Float, Int16)])
    func pcm16Clipping(input: Float, expected: Int16) throws {
        #expect(WAVFileSink.pcm16(input) == expected)
        let dir = try SinkTestDirectory()
        let path = dir.file("clip.wav")
        let sink = WAVFileSink(path: path, encoding: .pcm16)
        try sink.open()
        try write([input, -input.magnitude], to: sink)
        sink.close()
        let wav = try WAVReader.read(path: path)
        #expect(Int16((wav.samples[0] * 32768).rounded()) == expected)
    }

    @Test("float32 keeps values beyond full scale as they are")
    func floatNotClipped() throws {
        let dir = try SinkTestDirectory()
        let sink = WAVFileSink(path: dir.file("loud.wav"), encoding: .float32)
        try sink.open()
        try write([1.5, -2], to: sink)
        sink.close()
        #expect(try WAVReader.read(path: dir.file("loud.wav")).samples == [1.5, -2])
    }

    @Test("a missing directory is fileNotFound")
    func missingDirectory() throws {
        let dir = try SinkTestDirectory()
        let sink = WAVFileSink(path: dir.file("no/such/dir/out.wav"), encoding: .pcm16)
        #expect(throws: PlaybackError(.fileNotFound)) { try sink.open() }
    }

    @Test("an unwritable path is permissionDenied")
    func unwritable() throws {
        // Root ignores file modes, so use a place no one may create files in: sysfs (EACCES, or
        // EROFS where it is mounted read-only).
        let sink = WAVFileSink(path: "/sys/tonearm-test.wav", encoding: .float32)
        #expect(throws: PlaybackError(.permissionDenied)) { try sink.open() }
        if getuid() != 0 {
            let dir = try SinkTestDirectory()
            chmod(dir.path, 0o500)
            defer { chmod(dir.path, 0o700) }
            #expect(throws: PlaybackError(.permissionDenied)) {
                try WAVFileSink(path: dir.file("x.wav"), encoding: .pcm16).open()
            }
        }
    }

    @Test("writing past the WAV size limit is refused and the file stays valid")
    func sizeLimit() throws {
        let dir = try SinkTestDirectory()
        let path = dir.file("limit.wav")
        // A lowered limit of 1000 frames of float stereo stands in for 4 GiB.
        let sink = WAVFileSink(path: path, encoding: .float32, maxDataBytes: 8_000)
        try sink.open()
        try write([Float](repeating: 0.25, count: 1_800), to: sink)
        let error = #expect(throws: PlaybackError.self) { try write([Float](repeating: 0.25, count: 400), to: sink) }
        #expect(error?.code == .unsupportedFormat)
        sink.close()
        let wav = try WAVReader.read(path: path)
        #expect(wav.frameCount == 900)
        #expect(Int(wav.riffSize) == wav.fileSize - 8)
        #expect(WAVFileSink.maxDataBytes(for: .pcm16) == Int64(UInt32.max) - 36)
    }

    @Test("write before open is a typed error; open again truncates")
    func reopen() throws {
        let dir = try SinkTestDirectory()
        let path = dir.file("again.wav")
        let sink = WAVFileSink(path: path, encoding: .pcm16)
        #expect(throws: PlaybackError.self) { try write([0, 0], to: sink) }
        try sink.open()
        try write([Float](repeating: 0.1, count: 200), to: sink)
        sink.close()
        try sink.open()
        try write([Float](repeating: 0.1, count: 20), to: sink)
        sink.close()
        #expect(try WAVReader.read(path: path).frameCount == 10)
    }
}
