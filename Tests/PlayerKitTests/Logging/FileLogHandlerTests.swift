import Foundation
import Logging
import PlayerKit
import Testing

/// The log file on a real file system: lines, rotation at the cap, how many old files are kept,
/// a missing folder, and the line format with its redaction.
@Suite("Log file")
struct FileLogHandlerTests {
    static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-log-\(UUID().uuidString)")
    }

    static func lines(_ url: URL) throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test func writesOneLinePerRecordAndCreatesTheMissingFolder() throws {
        let root = Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let url = root.appendingPathComponent("deeper/state/tonearm.log")
        let file = RotatingLogFile(url: url)
        file.write("first")
        file.write("second")
        #expect(try Self.lines(url) == ["first", "second"])
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test func appendsToAnExistingFile() throws {
        let root = Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let url = root.appendingPathComponent("tonearm.log")
        RotatingLogFile(url: url).write("from an earlier run")
        RotatingLogFile(url: url).write("from this run")
        #expect(try Self.lines(url) == ["from an earlier run", "from this run"])
    }

    @Test func rotatesAtTheCapAndKeepsAtMostNFiles() throws {
        let root = Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let url = root.appendingPathComponent("tonearm.log")
        // Each line is 10 bytes with its newline: three fit in 30 bytes, the fourth rotates.
        let file = RotatingLogFile(url: url, policy: .init(maxBytes: 30, keptFiles: 2))
        for index in 0..<3 { file.write("line-\(index)...") }
        #expect(!FileManager.default.fileExists(atPath: file.rotatedURL(1).path))
        file.write("line-3...")
        #expect(try Self.lines(file.rotatedURL(1)) == ["line-0...", "line-1...", "line-2..."])
        #expect(try Self.lines(url) == ["line-3..."])
        for index in 4..<12 { file.write("line-\(index)...") }
        // Rotations before lines 6, 9 and 11 ("line-10..." is 11 bytes): lines 0-5 are gone.
        #expect(try Self.lines(url) == ["line-11..."])
        #expect(try Self.lines(file.rotatedURL(1)) == ["line-9...", "line-10..."])
        #expect(try Self.lines(file.rotatedURL(2)) == ["line-6...", "line-7...", "line-8..."])
        #expect(!FileManager.default.fileExists(atPath: file.rotatedURL(3).path))
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        #expect(names == ["tonearm.log", "tonearm.log.1", "tonearm.log.2"])
        for name in names {
            let size = try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(name).path)[.size] as? NSNumber
            #expect((size?.intValue ?? .max) <= 30)
        }
    }

    @Test func aLineLongerThanTheCapIsWrittenWhole() throws {
        let root = Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let url = root.appendingPathComponent("tonearm.log")
        let file = RotatingLogFile(url: url, policy: .init(maxBytes: 8, keptFiles: 1))
        let long = String(repeating: "x", count: 20)
        file.write(long)
        file.write("short")
        #expect(try Self.lines(file.rotatedURL(1)) == [long])
        #expect(try Self.lines(url) == ["short"])
    }

    @Test func anUnwritableLocationIsReportedOnceAndNothingCrashes() throws {
        let root = Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        // A regular file where the folder should be: neither the folder nor the log can be made.
        let blocker = root.appendingPathComponent("blocker")
        try Data().write(to: blocker)
        let reports = Reports()
        let file = RotatingLogFile(url: blocker.appendingPathComponent("tonearm.log")) { reports.append($0) }
        file.write("one")
        file.write("two")
        #expect(reports.all.count == 1)
        #expect(reports.all.first?.contains("cannot open") == true)
    }

    @Test func concurrentWritersNeverInterleaveWithinALine() async throws {
        let root = Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let url = root.appendingPathComponent("tonearm.log")
        let file = RotatingLogFile(url: url)
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    for index in 0..<200 { file.write("writer-\(writer)-record-\(index)-" + String(repeating: "z", count: 100)) }
                }
            }
        }
        let lines = try Self.lines(url)
        #expect(lines.count == 1600)
        #expect(lines.allSatisfy { $0.hasPrefix("writer-") && $0.hasSuffix(String(repeating: "z", count: 100)) })
    }

    @Test func theHandlerWritesTimeLevelLabelSourceMessageAndSortedMetadata() throws {
        let root = Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let url = root.appendingPathComponent("tonearm.log")
        let file = RotatingLogFile(url: url)
        var logger = Logger(label: "tonearm") { label in FileLogHandler(label: label, file: file, level: .info) }
        logger[metadataKey: "session"] = "s1"
        logger.debug("not written: below the level")
        logger.warning("playback fault", metadata: ["errorType": "Network.connectionLost", "code": "2004", "note": "two words"])
        let lines = try Self.lines(url)
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        let pattern = #/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z warning tonearm \[PlayerKitTests\] playback fault code=2004 errorType=Network.connectionLost note="two words" session=s1$/#
        #expect(line.wholeMatch(of: pattern) != nil, "\(line)")
    }

    @Test func theHandlerRedactsWhatACallSiteLetThrough() throws {
        let root = Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let url = root.appendingPathComponent("tonearm.log")
        let file = RotatingLogFile(url: url)
        let logger = Logger(label: "tonearm") { label in FileLogHandler(label: label, file: file, level: .trace) }
        let secret = "http://me:CANARY-7f3a@h:1/s?token=CANARY-7f3a"
        logger.error("failed on \(secret)", metadata: ["url": "\(secret)", "nested": ["a": "\(secret)"], "file": "/home/anna/a.mp3"])
        logger.debug("debug keeps paths", metadata: ["file": "/home/anna/a.mp3"])
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(!text.contains("CANARY"))
        #expect(text.contains("failed on http://h:1/s"))
        let lines = try Self.lines(url)
        #expect(lines.first?.contains("file=<path>") == true)
        #expect(lines.last?.contains("file=/home/anna/a.mp3") == true)
    }

    @Test func theTimestampIsUTCWithMilliseconds() {
        #expect(LogLine.timestamp(Date(timeIntervalSince1970: 1_795_000_000.1234)) == "2026-11-18T11:06:40.123Z")
        #expect(LogLine.timestamp(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
    }

    @Test func theDefaultLocationFollowsXDGStateHome() {
        let home = URL(fileURLWithPath: "/home/anna")
        #expect(LogFileLocation.defaultURL(environment: ["XDG_STATE_HOME": "/x/state"], home: home).path == "/x/state/tonearm/tonearm.log")
        #expect(LogFileLocation.defaultURL(environment: [:], home: home).path == "/home/anna/.local/state/tonearm/tonearm.log")
        // A relative value is ignored (XDG Base Directory specification).
        #expect(LogFileLocation.defaultURL(environment: ["XDG_STATE_HOME": "state"], home: home).path == "/home/anna/.local/state/tonearm/tonearm.log")
    }

    final class Reports: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func append(_ item: String) { lock.withLock { items.append(item) } }
        var all: [String] { lock.withLock { items } }
    }
}
