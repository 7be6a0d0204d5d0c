import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// The Unix socket's file: private to its owner, replaced only when nothing answers on it, and
/// removed when the server stops.
enum MPDSocketFile {
    /// Removes a socket file left by a server that is gone. A socket someone answers on, or a
    /// path that is not a socket, is left alone and refused.
    static func clearStale(_ path: String, group: any EventLoopGroup) async throws(MPDServerError) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFSOCK else { throw .pathIsNotASocket(path: path) }
        if let channel = try? await ClientBootstrap(group: group).connect(unixDomainSocketPath: path).get() {
            try? await channel.close()
            throw .socketInUse(path: path)
        }
        remove(path)
    }

    static func makePrivate(_ path: String) throws(MPDServerError) {
        guard chmod(path, 0o600) == 0 else {
            throw .bindFailed(.unixSocket(path: path), reason: "cannot make the socket private (errno \(errno))")
        }
    }

    static func remove(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { return }
        unlink(path)
    }
}
