import Foundation
import PlayerCore
import PlayerKit
import Testing

/// Serialized: "this process is the daemon" is one flag for the whole process, which each test sets and clears.
@Suite(.serialized) struct DaemonLockTests {
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

    /// A child process spawned while the daemon holds the lock shares the lock file's open
    /// description until it execs; the lock still goes with `release`, not with that last copy.
    /// (Another test's spawn at the wrong moment once made the re-acquire above fail.) The copy is
    /// made here as a child's is: a second descriptor for the same open description.
    @Test func releaseDropsTheLockThatACopyOfTheDescriptorStillShares() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-lock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: parent) }
        let directory = DaemonRuntimeDirectory.resolve(environment: ["XDG_RUNTIME_DIR": parent.path])

        let lock = try DaemonLock.acquire(in: directory)
        let held = try #require(Self.openDescriptor(of: directory.lockFile), "the lock's descriptor is not in /proc/self/fd")
        let copy = dup(held)
        try #require(copy >= 0)
        defer { _ = close(copy) }

        lock.release()
        let again = try DaemonLock.acquire(in: directory)
        again.release()
    }

    /// This process's descriptor open on `file`, from /proc/self/fd.
    static func openDescriptor(of file: URL) -> Int32? {
        let target = file.resolvingSymlinksInPath().path
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.compactMap(Int32.init).first { descriptor in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")) == target
        }
    }

    @Test func onlyTheSharedSoundIsTheDaemons() {
        #expect(OutputChoice.pulse.isSharedSound)
        #expect(!OutputChoice.null.isSharedSound)
        #expect(!OutputChoice.wav(path: "/tmp/x.wav", float: false).isSharedSound)
    }
}
