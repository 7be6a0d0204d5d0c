import Foundation
import TestProcesses
import Testing

/// The examples package (Examples/), which depends on Tonearm by path as an outside app does:
/// built as `make test` builds it, its PlayNow plays a generated file to its end and a loopback
/// stream until told to stop, with no sound server (into play-now.wav, the fallback it names).
@Suite("examples package", .serialized)
struct ExamplePackageTests {
    static let scratch = CLITests.packageRoot.appendingPathComponent(".build/examples")

    /// Builds the examples (nothing to do after `make test`, which built them already) and
    /// returns PlayNow.
    static func playNow() throws -> URL {
        let build = Process()
        build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        build.arguments = ["swift", "build", "--package-path", CLITests.packageRoot.appendingPathComponent("Examples").path, "--scratch-path", scratch.path]
        let log = Pipe()
        build.standardOutput = log
        build.standardError = log
        try build.run()
        let output = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        build.waitUntilExit()
        #expect(build.terminationStatus == 0, "the examples package did not build:\n\(output.suffix(4000))")
        return scratch.appendingPathComponent("debug/PlayNow")
    }

    /// PlayNow on `source`, in a folder of its own, with no sound server.
    static func start(_ source: String) throws -> (process: Process, input: FileHandle, output: OutputLines, folder: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-example-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let process = Process()
        // Line-buffered, so each update arrives as it is printed.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/stdbuf")
        process.arguments = ["-oL", try playNow().path, source]
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_SERVER"] = "unix:" + folder.appendingPathComponent("no-pulse").path
        environment["XDG_RUNTIME_DIR"] = folder.path
        process.environment = environment
        let input = Pipe()
        let output = OutputLines()
        process.standardInput = input
        process.standardOutput = output.pipe
        process.standardError = output.pipe
        try process.run()
        return (process, input.fileHandleForWriting, output, folder)
    }

    @Test func playsAGeneratedFileToItsEnd() throws {
        let (dir, tone) = try PlaybackCommandTests.tone(seconds: 1)
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try Self.start(tone.path)
        defer { try? FileManager.default.removeItem(at: run.folder) }
        #expect(eventuallyBlocking(timeout: 60) { !run.process.isRunning }, "\(run.output.text.suffix(3000))")
        let text = run.output.text
        #expect(run.process.terminationStatus == 0, "\(text.suffix(3000))")
        #expect(text.contains("PlayerState.playing(") && text.contains("PlayerState.finished"), "\(text.suffix(3000))")
        // No sound server: the typed notice, and the sound in the file it names.
        #expect(text.contains("play-now.wav"), "\(text.suffix(3000))")
        let written = (try? FileManager.default.attributesOfItem(atPath: run.folder.appendingPathComponent("play-now.wav").path)[.size] as? Int) ?? 0
        #expect(written > 48_000 * 2 * 2 / 2, "\(written) bytes written for a second of sound")
    }

    @Test func playsALoopbackStreamUntilToldToStop() throws {
        let (dir, tone) = try PlaybackCommandTests.tone(seconds: 30)
        defer { try? FileManager.default.removeItem(at: dir) }
        let audio = try Data(contentsOf: tone)
        let server = try TestHTTPServer { _ in .complete(contentType: "audio/flac", body: audio) }
        defer { server.stop() }
        let run = try Self.start(server.url("/stream.flac").absoluteString)
        defer { try? FileManager.default.removeItem(at: run.folder) }
        #expect(eventuallyBlocking(timeout: 60) { run.output.text.contains("PlayerState.playing(") }, "\(run.output.text.suffix(3000))")
        run.input.write(Data("stop\n".utf8))
        #expect(eventuallyBlocking(timeout: 60) { !run.process.isRunning }, "\(run.output.text.suffix(3000))")
        let text = run.output.text
        #expect(run.process.terminationStatus == 0, "\(text.suffix(3000))")
        #expect(text.contains("PlayerState.finished"), "\(text.suffix(3000))")
        #expect(server.requests.contains { $0.path == "/stream.flac" })
    }
}

/// A child's output, collected as it comes (so a test can wait for a line while it runs).
final class OutputLines: @unchecked Sendable {
    // NSLock: the pipe's handler runs on a Dispatch thread and the test reads from its own.
    private let lock = NSLock()
    private var data = Data()
    let pipe = Pipe()

    init() {
        pipe.fileHandleForReading.readabilityHandler = { [self] handle in
            let chunk = handle.availableData
            lock.withLock { data.append(chunk) }
        }
    }

    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}
