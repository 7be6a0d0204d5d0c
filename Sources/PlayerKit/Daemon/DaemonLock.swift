import Foundation
import PlayerCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One daemon per user: `tonearm serve` holds an exclusive flock(2) on the runtime directory's
/// lock file for as long as it runs, and publishes a `DaemonInfo` beside it. The kernel drops the
/// lock when the daemon exits, however it exits, so a crash never leaves a stale daemon behind
/// (the info file may stay; it is read only while the lock is held). The lock file is never
/// deleted, for the reason `EpisodeFileLock` gives.
package final class DaemonLock: Sendable {
    package let directory: DaemonRuntimeDirectory
    private let descriptor: Mutex<Int32>
    /// This process is the daemon: its own player may open the real output.
    private static let heldHere = Atomic<Bool>(false)

    private init(directory: DaemonRuntimeDirectory, descriptor: Int32) {
        self.directory = directory
        self.descriptor = Mutex(descriptor)
    }

    /// Takes the lock, or fails with `daemonRunning` (its underlying text says which pid and how
    /// to reach it) when another daemon holds it.
    package static func acquire(in directory: DaemonRuntimeDirectory) throws(PlaybackError) -> DaemonLock {
        try directory.prepare()
        let descriptor = open(directory.lockFile.path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw PlaybackError.from(errno: errno, underlying: "cannot open the daemon's lock file") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno
            _ = close(descriptor)
            guard busy == EWOULDBLOCK else { throw PlaybackError.from(errno: busy, underlying: "cannot lock the daemon's lock file") }
            throw refusal(DaemonInfo.read(directory.infoFile))
        }
        heldHere.store(true, ordering: .sequentiallyConsistent)
        return DaemonLock(directory: directory, descriptor: descriptor)
    }

    /// Writes `info` for the other commands (replacing the file in one rename, mode 0600).
    package func publish(_ info: DaemonInfo) throws(PlaybackError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let temporary = directory.url.appendingPathComponent(".daemon.json.\(getpid())")
        do {
            let data = try encoder.encode(info)
            guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
                throw PlaybackError.from(errno: errno, underlying: "cannot write the daemon's info file")
            }
        } catch let error as PlaybackError {
            throw error
        } catch {
            throw PlaybackError(.unknown, underlying: "cannot encode the daemon's info: \(error)")
        }
        guard rename(temporary.path, directory.infoFile.path) == 0 else {
            throw PlaybackError.from(errno: errno, underlying: "cannot write the daemon's info file")
        }
    }

    /// Removes the info file and drops the lock.
    package func release() {
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            _ = unlink(directory.infoFile.path)
            LockFile.unlockAndClose(descriptor)
            descriptor = -1
            Self.heldHere.store(false, ordering: .sequentiallyConsistent)
        }
    }

    deinit { release() }

    /// The daemon that runs for this user, if another process is one; nil when none runs or this
    /// process is the daemon. A shared lock is tried and dropped at once: it fails only while a
    /// daemon holds the exclusive one.
    package static func running(in directory: DaemonRuntimeDirectory = .resolve()) -> RunningDaemon? {
        guard !heldHere.load(ordering: .sequentiallyConsistent), directory.inspect() == nil else { return nil }
        let descriptor = open(directory.lockFile.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        defer { _ = close(descriptor) }
        guard flock(descriptor, LOCK_SH | LOCK_NB) != 0 else { return nil }
        guard errno == EWOULDBLOCK else { return nil }
        return RunningDaemon(info: DaemonInfo.read(directory.infoFile))
    }

    /// The error of a second daemon or player while one runs.
    package static func refusal(_ info: DaemonInfo?) -> PlaybackError {
        PlaybackError(.daemonRunning, underlying: info?.reachHint ?? "stop it with `systemctl --user stop tonearm`")
    }
}

/// A daemon found running by `DaemonLock.running`, with what it published (nil in the moment
/// between taking the lock and writing the info file).
package struct RunningDaemon: Sendable, Equatable {
    package var info: DaemonInfo?

    /// The refusal of a second audio output.
    package var refusal: PlaybackError { DaemonLock.refusal(info) }
}

extension DaemonInfo {
    /// The info file's contents; nil when it is missing or unreadable.
    static func read(_ file: URL) -> DaemonInfo? {
        guard let data = try? Data(contentsOf: file) else { return nil }
        return try? JSONDecoder().decode(DaemonInfo.self, from: data)
    }
}
