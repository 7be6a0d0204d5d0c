import Foundation
import PlayerCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Lets one downloader at a time work on an episode's files, across processes: a
/// `tonearm podcast download` in a shell and the terminal's own downloads may ask for the same
/// episode at once, and two writers appending to one partial file would interleave their bytes
/// into a file of the right length that is not the episode.
///
/// flock(2) on an empty lock file per episode in `.locks/` under the episodes folder. The kernel
/// drops the lock when its holder exits, however it exits, so a crashed run never blocks the
/// next. Lock files are never deleted: deleting one while another process waits on it would let
/// a third lock a new file of the same name beside it.
package final class EpisodeFileLock: Sendable {
    private let descriptor: Mutex<Int32>

    private init(descriptor: Int32) {
        self.descriptor = Mutex(descriptor)
    }

    /// Takes the lock called `name`, waiting while another holds it (`onWait` is told once, first).
    /// The wait runs on a thread of its own, not the concurrency pool's: it lasts as long as the
    /// other download does.
    package static func acquire(_ name: String, in directory: URL, onWait: () -> Void) async throws(PlaybackError) -> EpisodeFileLock {
        let folder = directory.appendingPathComponent(".locks", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw PlaybackError(.permissionDenied, underlying: "cannot create the downloads' lock folder")
        }
        let path = folder.appendingPathComponent("\(name).lock", isDirectory: false).path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw PlaybackError.from(errno: errno, underlying: "cannot open the download's lock file") }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return EpisodeFileLock(descriptor: descriptor) }
        let busy = errno
        guard busy == EWOULDBLOCK else {
            _ = close(descriptor)
            throw PlaybackError.from(errno: busy, underlying: "cannot lock the download's lock file")
        }
        onWait()
        let failure: Int32? = await BlockingCall.onOwnThread {
            while flock(descriptor, LOCK_EX) != 0 {
                if errno != EINTR { return errno }
            }
            return nil
        }
        if let failure {
            _ = close(descriptor)
            throw PlaybackError.from(errno: failure, underlying: "cannot lock the download's lock file")
        }
        return EpisodeFileLock(descriptor: descriptor)
    }

    /// Lets the next downloader in.
    package func release() {
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            LockFile.unlockAndClose(descriptor)
            descriptor = -1
        }
    }

    deinit { release() }
}
