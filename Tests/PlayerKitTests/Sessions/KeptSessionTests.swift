import Foundation
import Library
import LibraryKit
import Logging
import PlayerCore
import PlayerKit
import Testing

/// A timer kept with `--save`: its JSON in a file of its own beside the library, named by the
/// library, and exactly the session that played.
@Suite("Sessions kept in the library")
struct KeptSessionTests {
    static func library() async throws -> (LibraryContext, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-kept-\(UUID().uuidString)")
        return (try await LibraryContext.open(directory: dir, logger: .silent), dir)
    }

    static let timer = try! TimerSession(length: "20m", bed: "brown", interval: "5m").session(name: "Morning sit", title: "Timer 20:00")

    @Test func theSessionIsWrittenBesideTheLibraryAndNamedByIt() async throws {
        let (library, dir) = try await Self.library()
        defer { try? FileManager.default.removeItem(at: dir) }
        let record = try library.keepSession(Self.timer, name: "Morning sit")
        #expect(record.name == "Morning sit" && record.stageCount == 1)
        #expect(record.path == library.keptSessionsDirectory.appendingPathComponent("morning-sit.json").path)
        // What the library names is the session that played, and it plans as it did.
        let kept = try SessionFile.load(from: URL(fileURLWithPath: record.path))
        #expect(kept == Self.timer)
        #expect(try library.store.sessionJSON(id: record.id) == String(decoding: TimerSession.json(Self.timer), as: UTF8.self))
        #expect(try library.store.session(named: "morning SIT").id == record.id)
    }

    @Test func aTakenNameIsRefusedAndLeavesNoFile() async throws {
        let (library, dir) = try await Self.library()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try library.keepSession(Self.timer, name: "Sit")
        #expect(throws: PlaybackError(.alreadyInLibrary)) { try library.keepSession(Self.timer, name: "SIT") }
        let files = try FileManager.default.contentsOfDirectory(atPath: library.keptSessionsDirectory.path)
        #expect(files == ["sit.json"])
    }

    @Test func aForgottenSessionsFileIsNeverOverwritten() async throws {
        let (library, dir) = try await Self.library()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try library.keepSession(Self.timer, name: "Sit / evening")
        try library.store.removeSession(named: "Sit / evening")
        let second = try library.keepSession(Self.timer, name: "Sit / evening")
        #expect(URL(fileURLWithPath: first.path).lastPathComponent == "sit-evening.json")
        #expect(URL(fileURLWithPath: second.path).lastPathComponent == "sit-evening-2.json")
        #expect(FileManager.default.fileExists(atPath: first.path))
    }
}
