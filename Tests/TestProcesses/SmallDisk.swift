import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real, nearly full disk: a tmpfs of `bytes` mounted on a fresh directory, where a write past
/// its size fails with ENOSPC exactly as on a full drive. Tests run as root (CI does too), so
/// mount(2) is allowed; when it is not, the error says why and the test fails rather than skip.
package final class SmallDisk: @unchecked Sendable {
    package struct MountError: Error, CustomStringConvertible {
        package var description: String
    }

    package let directory: URL
    private var mounted = true

    package init(bytes: Int) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-small-disk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        guard mount("tmpfs", directory.path, "tmpfs", 0, "size=\(bytes),mode=0755") == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: directory)
            throw MountError(description: "cannot mount a \(bytes)-byte tmpfs (\(reason)); these tests need root")
        }
    }

    /// Unmounts (lazily, so an open file does not keep it) and removes the directory.
    package func unmount() {
        guard mounted else { return }
        mounted = false
        _ = umount2(directory.path, Int32(MNT_DETACH))
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { unmount() }
}
