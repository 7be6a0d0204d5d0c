import Foundation
import Media
import PlayerCore
import TestProcesses
import Testing

/// Decoding from a `ByteSource` (the streaming path): custom AVIO, typed errors from the source.
@Suite("FFmpegDecoder byte sources", .blocking)
struct FFmpegDecoderByteSourceTests {
    @Test("Stream formats arrive in 997-byte chunks and decode like the file",
          arguments: [AudioFixtures.Codec.mp3, .vorbis, .opus, .flac])
    func decodesChunkedSource(_ codec: AudioFixtures.Codec) throws {
        let fixtures = try AudioFixtures()
        let file = try fixtures.sine(codec, sampleRate: 48_000)
        let fromFile = try decodeAll(try FFmpegDecoder(url: file))
        let decoder = try FFmpegDecoder(source: MemorySource(try Data(contentsOf: file), chunkSize: 997))
        let fromSource = try decodeAll(decoder)
        #expect(abs(frameCount(fromSource) - frameCount(fromFile)) <= frameCount(fromFile) / 100)
        let level = SignalMetrics.rms(SignalMetrics.channel(0, of: SignalMetrics.middle(fromSource)))
        #expect(abs(SignalMetrics.decibels(level, relativeTo: 0.5 / 2.0.squareRoot())) <= 0.5)
        #expect(!decoder.isSeekable)
    }

    @Test("ADTS AAC (as radio streams send it) decodes from a source")
    func decodesADTS() throws {
        let fixtures = try AudioFixtures()
        let file = fixtures.url("radio.aac")
        try fixtures.ffmpeg([
            "-f", "lavfi", "-i", "aevalsrc=0.5*sin(2*PI*440*t)|0.5*sin(2*PI*440*t):s=44100:c=stereo:d=2",
            "-c:a", "aac", "-b:a", "128k", "-f", "adts", file.path,
        ])
        let samples = try decodeAll(try FFmpegDecoder(source: MemorySource(try Data(contentsOf: file))))
        #expect(abs(frameCount(samples) - 96_000) <= 2_400, "\(frameCount(samples)) frames")
    }

    @Test("A live source is not seekable: seek throws a typed error and decoding goes on")
    func seekThrows() throws {
        let fixtures = try AudioFixtures()
        let file = try fixtures.sine(.mp3, sampleRate: 44_100)
        let decoder = try FFmpegDecoder(source: MemorySource(try Data(contentsOf: file)))
        #expect(decoder.duration == nil)
        #expect(throws: PlaybackError.self) { try decoder.seek(to: 1) }
        #expect(abs(frameCount(try decodeAll(decoder)) - 96_000) <= 960)
    }

    @Test("A connection lost mid-stream surfaces as connectionLost from read, after the audio before it")
    func connectionLostMidStream() throws {
        let fixtures = try AudioFixtures()
        let file = try fixtures.sine(.mp3, sampleRate: 44_100, seconds: 6)
        let bytes = try Data(contentsOf: file)  // about 96 KB at 128 kbps
        let source = MemorySource(bytes, failAfter: bytes.count * 2 / 3)
        let decoder = try FFmpegDecoder(source: source)

        var frames = 0
        var buffer = [Float](repeating: 0, count: 2 * 4096)
        let error = #expect(throws: PlaybackError.self) {
            while true {
                let read = try decoder.read(into: &buffer, maxFrames: 4096)
                if read == 0 { break }
                frames += read
            }
        }
        #expect(error?.code == .connectionLost)
        #expect(frames > 48_000 * 3, "\(frames) frames before the failure")
        // Sticky: the next read throws the same error, and the source is not asked again.
        #expect(throws: PlaybackError(.connectionLost)) { try decoder.read(into: &buffer, maxFrames: 4096) }
        #expect(source.readsAfterFailure.withLock { $0 } == 1)
    }

    @Test("A connection lost while probing surfaces as connectionLost from init")
    func connectionLostWhileOpening() throws {
        let fixtures = try AudioFixtures()
        let file = try fixtures.sine(.mp3, sampleRate: 44_100)
        let source = MemorySource(try Data(contentsOf: file), failAfter: 600)
        #expect(throws: PlaybackError(.connectionLost)) { try FFmpegDecoder(source: source) }
    }

    @Test("An HTML page instead of audio is wrongContentType", arguments: [nil, "audio/mpeg"] as [String?])
    func htmlPage(_ hint: String?) throws {
        let page = """
            <!DOCTYPE html>
            <html><head><title>503 Service Unavailable</title></head>
            <body><h1>Service Unavailable</h1><p>The stream is offline. Please try again later.</p></body></html>
            """
        let source = MemorySource(Data(String(repeating: page, count: 20).utf8))
        let error = #expect(throws: PlaybackError.self) { try FFmpegDecoder(source: source, formatHint: hint) }
        #expect(error?.code == .wrongContentType || error?.code == .unsupportedFormat, "\(String(describing: error))")
        if hint == nil { #expect(error?.code == .wrongContentType) }
    }

    @Test("An empty source ends cleanly")
    func emptySource() throws {
        let decoder = try FFmpegDecoder(source: MemorySource(Data()))
        #expect(try decodeAll(decoder).isEmpty)
    }
}
