import Foundation
import PlayerCore
import PlayerKit
import Testing

@Suite struct DaemonLockTests {
    @Test func oneHolderAtATimeAndTheInfoFileGoesWithTheLock() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-lock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: parent) }
        let directory = DaemonRuntimeDirectory.resolve(environment: ["XDG_RUNTIME_DIR": parent.path])

        let lock = try DaemonLock.acquire(in: directory)
        let info = DaemonInfo(pid: getpid(), output: "null output", endpoints: [.init(service: "mpd", address: "127.0.0.1:6600")])
        try lock.publish(info)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: directory.infoFile.path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        // This process is the daemon: its own player is not refused.
        #expect(DaemonLock.running(in: directory) == nil)

        // A second holder (a new open file description, as another process has) is refused with
        // what the first published.
        do {
            _ = try DaemonLock.acquire(in: directory)
            Issue.record("a second daemon took the lock")
        } catch {
            #expect(error.code == .daemonRunning)
            #expect(error.underlying == info.reachHint)
        }

        lock.release()
        #expect(!FileManager.default.fileExists(atPath: directory.infoFile.path))
        let again = try DaemonLock.acquire(in: directory)
        again.release()
    }

    @Test func onlyTheSharedSoundIsTheDaemons() {
        #expect(OutputChoice.pulse.isSharedSound)
        #expect(!OutputChoice.null.isSharedSound)
        #expect(!OutputChoice.wav(path: "/tmp/x.wav", float: false).isSharedSound)
    }
}
