import Foundation
import TestProcesses
import Testing

/// Every input the fuzzers kept (Tests/Fuzz/Corpus) still passes its parser's contract: each fuzz
/// target, built as an ordinary program by `swift build`, replays its corpus once. A parser that
/// now crashes, hangs or breaks its contract on one of them fails here, not only under `make fuzz`.
@Suite("Fuzz corpus replay", .blocking)
struct FuzzCorpusTests {
    @Test(arguments: [
        ("FuzzIcy", "icy"), ("FuzzPlaylist", "playlist"), ("FuzzRSS", "rss"), ("FuzzOPML", "opml"),
        ("FuzzSession", "session"), ("FuzzImage", "image"), ("FuzzDecoder", "decoder"), ("FuzzMPD", "mpd"), ("FuzzMPDFilter", "mpdfilter"),
        ("FuzzTranscript", "transcript"), ("FuzzHLS", "hls"), ("FuzzTimedMetadata", "timedmetadata"), ("FuzzChapters", "chapters"),
        ("FuzzDirectory", "directory"), ("FuzzSync", "sync"), ("FuzzSubtitles", "subtitles"), ("FuzzTags", "tags"), ("FuzzLyrics", "lyrics"), ("FuzzCue", "cue"),
    ])
    func theCommittedCorpusPassesItsContract(_ executable: String, _ corpus: String) throws {
        let folder = CLITests.packageRoot.appendingPathComponent("Tests/Fuzz/Corpus/\(corpus)")
        let inputs = try FileManager.default.contentsOfDirectory(atPath: folder.path).count
        #expect(inputs > 0, "no corpus in \(folder.path)")
        let process = Process()
        process.executableURL = CLITests.binary.deletingLastPathComponent().appendingPathComponent(executable)
        process.arguments = [folder.path]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(executable) on \(corpus): \(errors.suffix(2000))")
        #expect(printed.contains("replayed \(inputs) inputs"), "\(printed)")
    }
}
