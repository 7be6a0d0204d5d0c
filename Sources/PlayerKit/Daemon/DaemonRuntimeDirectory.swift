import Foundation
import PlayerCore

#if canImport(Glibc)
    import Glibc
#endif

/// Where the one daemon of a user keeps its lock, its info file and its sockets:
/// `$XDG_RUNTIME_DIR/tonearm/` (a private tmpfs the login manager makes per user), or
/// `/tmp/tonearm-<uid>/` when no runtime directory is set. The folder is the user's alone (mode
/// 0700): another account must not take the lock nor read the sockets.
package struct DaemonRuntimeDirectory: Sendable, Equatable {
    package let url: URL

    package init(url: URL) {
        self.url = url
    }

    /// The rule: an absolute `XDG_RUNTIME_DIR` wins (a relative one is ignored, as the
    /// specification says); otherwise `/tmp/tonearm-<uid>`.
    package static func resolve(environment: [String: String] = ProcessInfo.processInfo.environment, uid: uid_t = getuid()) -> Self {
        if let runtime = XDGDirectories(environment: environment).runtimeDirectory {
            return Self(url: runtime.appendingPathComponent("tonearm", isDirectory: true))
        }
        return Self(url: URL(fileURLWithPath: "/tmp/tonearm-\(uid)", isDirectory: true))
    }

    /// The flock(2) held while a daemon runs.
    package var lockFile: URL { url.appendingPathComponent("daemon.lock", isDirectory: false) }
    /// What a running daemon tells the others (`DaemonInfo`, JSON).
    package var infoFile: URL { url.appendingPathComponent("daemon.json", isDirectory: false) }

    /// What a folder found at the path must be for the daemon to use it.
    package enum Problem: Error, Equatable, CustomStringConvertible {
        case notADirectory
        case ownedByAnother(uid: uid_t)
        case openToOthers(mode: mode_t)

        package var description: String {
            switch self {
            case .notADirectory: "is not a directory"
            case .ownedByAnother(let uid): "belongs to user \(uid)"
            case .openToOthers(let mode): "is open to other users (mode \(String(mode & 0o777, radix: 8)))"
            }
        }
    }

    /// The rule for a folder that exists: a real directory (not a link), ours, closed to others.
    package static func check(isDirectory: Bool, owner: uid_t, mode: mode_t, uid: uid_t) -> Problem? {
        guard isDirectory else { return .notADirectory }
        guard owner == uid else { return .ownedByAnother(uid: owner) }
        guard mode & 0o077 == 0 else { return .openToOthers(mode: mode) }
        return nil
    }

    /// Makes the folder (0700) when missing and checks it with `check`; only the last component
    /// is made, as the parent (the runtime directory or /tmp) is the system's.
    package func prepare(uid: uid_t = getuid()) throws(PlaybackError) {
        if mkdir(url.path, 0o700) != 0, errno != EEXIST {
            throw PlaybackError.from(errno: errno, underlying: "cannot create the daemon's runtime directory")
        }
        if let problem = inspect(uid: uid) {
            throw PlaybackError(.permissionDenied, underlying: "the daemon's runtime directory \(problem)")
        }
    }

    /// The `check` of the folder as it is on disk (lstat: a symbolic link is not a directory);
    /// nil when it is fine or missing.
    package func inspect(uid: uid_t = getuid()) -> Problem? {
        var status = stat()
        guard lstat(url.path, &status) == 0 else { return nil }
        return Self.check(isDirectory: status.st_mode & S_IFMT == S_IFDIR, owner: status.st_uid, mode: status.st_mode, uid: uid)
    }
}
