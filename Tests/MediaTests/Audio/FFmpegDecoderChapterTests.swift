import Foundation
import Media
import PlayerCore
import TestProcesses
import Testing

/// A file's own chapters, read by FFmpeg: the fixtures are written by the `ffmpeg` tool from an
/// FFMETADATA file, as ID3v2 `CHAP` frames in an mp3 and as a chapter track in an m4a.
@Suite("FFmpegDecoder chapters", .blocking)
struct FFmpegDecoderChapterTests {
    /// Three chapters in milliseconds (1/1000 time base) plus one in another time base (1/10),
    /// so a wrong conversion shows; titles with a control character and a bidi override that must
    /// be dropped.
    static let metadata = """
        ;FFMETADATA1
        title=Chaptered

        [CHAPTER]
        TIMEBASE=1/1000
        START=0
        END=1500
        title=Intro

        [CHAPTER]
        TIMEBASE=1/1000
        START=1500
        END=3000
        title=The \u{202E}middle

        [CHAPTER]
        TIMEBASE=1/10
        START=30
        END=45
        title=Ending

        """

    func makeFile(_ codec: AudioFixtures.Codec, in fixtures: AudioFixtures) throws -> URL {
        let meta = try fixtures.write("meta.txt", Data(Self.metadata.utf8))
        let output = fixtures.url("chaptered.\(codec.fileExtension)")
        var arguments = ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=4.5", "-i", meta.path]
        arguments += ["-map", "0:a", "-map_metadata", "1", "-map_chapters", "1"] + codec.encoderArguments
        if codec == .mp3 { arguments += ["-id3v2_version", "3"] }
        try fixtures.ffmpeg(arguments + [output.path])
        return output
    }

    @Test("chapters are read with their titles and converted from each time base", arguments: [AudioFixtures.Codec.mp3, .aac])
    func readsChapters(_ codec: AudioFixtures.Codec) throws {
        let fixtures = try AudioFixtures()
        let decoder = try FFmpegDecoder(url: try makeFile(codec, in: fixtures))
        let chapters = decoder.chapters
        try #require(chapters.count == 3, "\(chapters)")
        #expect(chapters.map(\.title) == ["Intro", "The middle", "Ending"])
        // Both containers keep the times written (ID3 CHAP in milliseconds, MP4 in its chapter
        // track's time base), not moved by the encoder's priming.
        let tolerance = 0.001
        for (chapter, start) in zip(chapters, [0.0, 1.5, 3.0]) {
            #expect(abs(chapter.start - start) <= tolerance, "start \(chapter.start), expected \(start)")
        }
        if let end = chapters[2].end { #expect(abs(end - 4.5) <= tolerance, "end \(end)") }
    }

    @Test("a file without chapters has none")
    func noChapters() throws {
        let fixtures = try AudioFixtures()
        let decoder = try FFmpegDecoder(url: try fixtures.sine(.mp3, sampleRate: 44_100))
        #expect(decoder.chapters.isEmpty)
    }
}
