import Foundation
import PlayerCore
import TestProcesses
import Testing

/// The `tonearm` binary that `swift test` builds next to the test bundle.
@Suite("tonearm command line", .blocking)
struct CLITests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `swift test` builds every product into the same directory as the test bundle.
    static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("tonearm")
    }

    /// Runs the binary to its end; without `dataHome` it gets a library of its own.
    static func run(
        _ arguments: [String], dataHome: URL? = nil, directory: URL? = nil, environment extra: [String: String] = [:]
    ) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "C"
        environment["LC_ALL"] = nil
        environment["LC_MESSAGES"] = nil
        environment["XDG_DATA_HOME"] = (dataHome ?? FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-data-\(UUID().uuidString)")).path
        // Logs of test runs stay out of the user's state folder.
        environment["XDG_STATE_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-state-\(UUID().uuidString)").path
        // So are caches (artwork, directory answers), which would otherwise carry over between tests.
        environment["XDG_CACHE_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-cache-\(UUID().uuidString)").path
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    @Test func binaryExists() {
        #expect(FileManager.default.isExecutableFile(atPath: Self.binary.path), "no tonearm at \(Self.binary.path)")
    }

    @Test func version() throws {
        let r = try Self.run(["--version"])
        #expect(r.status == 0)
        let line = r.out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(line.hasPrefix(TonearmVersion.current + " "))
        #expect(line.contains("libavformat 59."))
    }

    @Test func help() throws {
        let r = try Self.run(["--help"])
        #expect(r.status == 0)
        #expect(r.out.contains("USAGE: tonearm"))
        #expect(r.out.contains("states"))
    }

    @Test func statesMarkdownIsGeneratedFromTheCode() throws {
        let r = try Self.run(["states", "--markdown"])
        #expect(r.status == 0)
        #expect(r.out == StateDocumentation.markdown())
        for name in PlayerState.Name.allCases { #expect(r.out.contains("| `\(name.rawValue)` |")) }
        for rule in PlayerState.transitionTable {
            #expect(r.out.contains("    \(rule.from.rawValue) --> \(rule.to.rawValue)\n"))
        }
    }

    @Test func unknownSubcommandFailsWithUsage() throws {
        let r = try Self.run(["no-such-command"])
        #expect(r.status != 0)
        #expect(!r.err.isEmpty)
    }
}
