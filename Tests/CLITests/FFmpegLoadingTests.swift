import Foundation
import TestProcesses
import Testing

/// FFmpeg's libraries are loaded by the first decode, not at start: glibc's `LD_DEBUG=files` names
/// every library the dynamic linker loads, and when.
@Suite("FFmpeg loaded on first use", .blocking)
struct FFmpegLoadingTests {
    /// Runs the program with the dynamic linker's trace of every library it loads, written to a
    /// file of its own (`LD_DEBUG_OUTPUT`: on stderr, the trace of a playback would fill the pipe).
    static func traced(_ arguments: [String]) throws -> (status: Int32, err: String, trace: String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-ld-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLITests.run(arguments, environment: ["LD_DEBUG": "files", "LD_DEBUG_OUTPUT": dir.appendingPathComponent("ld").path])
        let trace = try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
            .map { try String(contentsOf: $0, encoding: .utf8) }.joined()
        return (r.status, r.err, trace)
    }

    /// The dynamic linker's lines about libavformat (its `file=libavformat.so.59 …` lines).
    static func avformatLines(_ trace: String) -> [Substring] {
        trace.split(separator: "\n").filter { $0.contains("file=libavformat.so.") }
    }

    /// Commands that decode nothing never map FFmpeg (nor the 140 libraries it brings); nor does
    /// help for `play`, which otherwise starts the load before its command line is parsed.
    @Test(arguments: [["--version"], ["errors"], ["podcast", "list"], ["play", "a.mp3", "--help"]])
    func aCommandThatDecodesNothingLeavesFFmpegUnloaded(arguments: [String]) throws {
        let r = try Self.traced(arguments)
        #expect(r.status == 0, "stderr: \(r.err)")
        #expect(Self.avformatLines(r.trace).isEmpty, "\(Self.avformatLines(r.trace))")
        #expect(r.trace.contains("file=libc.so.6"), "LD_DEBUG traced nothing, so the check above proves nothing")
    }

    /// `--version` names the FFmpeg the program was built against without loading it.
    @Test func theVersionNamesTheFFmpegItWasBuiltWith() throws {
        let r = try CLITests.run(["--version"])
        #expect(r.out.contains("built with libavformat 59."), "stdout: \(r.out)")
    }

    /// The first file played loads FFmpeg then, by the program's own request (dlopen), and plays.
    @Test func playingAFileLoadsFFmpegThen() throws {
        let (dir, file) = try PlaybackCommandTests.tone(seconds: 1)
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Self.traced(["play", file.path, "--output", "null"])
        #expect(r.status == 0, "stderr: \(r.err)")
        let lines = Self.avformatLines(r.trace)
        #expect(lines.contains { $0.contains("dynamically loaded by") }, "\(lines)")
        #expect(!lines.contains { $0.contains("needed by") }, "linked at build time again: \(lines)")
    }

    /// A `play` command line that does not parse may end while the load it started runs: it ends
    /// with the parser's message and status, not a crash (an exit during a load would run the
    /// libraries' constructors twice).
    @Test func aPlayThatDoesNotParseEndsWithTheParsersMessage() throws {
        let r = try Self.traced(["play", "a.mp3", "--no-such-option"])
        #expect(r.status == 64, "stderr: \(r.err)")
        #expect(r.err.contains("--no-such-option"), "stderr: \(r.err)")
    }

    /// A system whose FFmpeg cannot be loaded gets a typed error that says why, not a crash or a
    /// program that does not start: here a libavformat that is not a library comes first on the
    /// search path.
    @Test func anFFmpegThatCannotBeLoadedIsATypedError() throws {
        let (dir, file) = try PlaybackCommandTests.tone(seconds: 1)
        defer { try? FileManager.default.removeItem(at: dir) }
        let libraries = dir.appendingPathComponent("lib")
        try FileManager.default.createDirectory(at: libraries, withIntermediateDirectories: true)
        try Data("not a library".utf8).write(to: libraries.appendingPathComponent("libavformat.so.59"))

        let version = try CLITests.run(["--version"], environment: ["LD_LIBRARY_PATH": libraries.path])
        #expect(version.status == 0, "commands that decode nothing still run: \(version.err)")

        let state = dir.appendingPathComponent("state")
        let r = try CLITests.run(
            ["play", file.path, "--output", "null"], environment: ["LD_LIBRARY_PATH": libraries.path, "XDG_STATE_HOME": state.path])
        #expect(r.status == 1, "a failed playback, not a crash (an abort is 6): stderr: \(r.err)")
        #expect(r.err.contains("Playback Error"), "stderr: \(r.err)")
        let log = try String(contentsOf: state.appendingPathComponent("tonearm/tonearm.log"), encoding: .utf8)
        #expect(log.contains("code=1000"), "the typed error is logged: \(log)")
        #expect(log.contains("cannot load FFmpeg's libraries: libavformat.so.59: "), "the log names the library: \(log)")
    }
}
