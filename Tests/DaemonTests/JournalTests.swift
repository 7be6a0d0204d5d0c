import Daemon
import Foundation
import Logging
import Synchronization
import Testing

@Suite struct JournalTests {
    @Test func levelsMapToSyslogPriorities() {
        let expected: [Logger.Level: Int] = [.trace: 7, .debug: 7, .info: 6, .notice: 5, .warning: 4, .error: 3, .critical: 2]
        for level in Logger.Level.allCases { #expect(JournalLogHandler.priority(level) == expected[level], "\(level)") }
    }

    @Test func aRecordIsOneLineWithItsPrefixAndNoTimestamp() {
        let lines = Mutex<[String]>([])
        var logger = Logger(label: "tonearm") { label in JournalLogHandler(label: label, level: .info) { line in lines.withLock { $0.append(line) } } }
        logger.logLevel = .info
        logger.debug("not written")
        logger.warning("playback fault", metadata: ["code": "2004", "url": "https://user:secret@example.org/live?token=x"])
        let written = lines.withLock { $0 }
        #expect(written.count == 1)
        let line = written.first ?? ""
        #expect(line.hasPrefix("<4>warning tonearm ["), "\(line)")
        #expect(line.hasSuffix("playback fault code=2004 url=https://example.org/live"), "\(line)")
        #expect(!line.contains("secret") && !line.contains("token") && !line.contains("\n"))
    }

    @Test func journalStreamMatchesOnlyTheSameDeviceAndInode() {
        #expect(JournalStream.matches("8:12345", device: 8, inode: 12345))
        #expect(!JournalStream.matches("8:12345", device: 8, inode: 12346))
        #expect(!JournalStream.matches("9:12345", device: 8, inode: 12345))
        for malformed in [nil, "", "8", "8:", ":1", "8:1:2", "a:b"] {
            #expect(!JournalStream.matches(malformed, device: 8, inode: 1))
        }
    }

    @Test func stderrOfThisProcessIsTheJournalOnlyWhenTheVariableNamesIt() {
        var status = stat()
        #expect(fstat(STDERR_FILENO, &status) == 0)
        let own = "\(status.st_dev):\(status.st_ino)"
        #expect(JournalStream.isStderrConnected(environment: ["JOURNAL_STREAM": own]))
        #expect(!JournalStream.isStderrConnected(environment: ["JOURNAL_STREAM": "\(status.st_dev):\(status.st_ino + 1)"]))
        #expect(!JournalStream.isStderrConnected(environment: [:]))
    }
}
