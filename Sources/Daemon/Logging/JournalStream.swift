import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Whether stderr is the systemd journal: systemd sets `JOURNAL_STREAM` to the device and inode
/// (`DEV:INODE`, decimal) of the stream it connected stdout and stderr to; stderr is the journal
/// only while its own fstat(2) gives the same pair (a redirection in between changes it).
package enum JournalStream {
    /// The rule, pure: `variable` names exactly `device` and `inode`.
    package static func matches(_ variable: String?, device: UInt64, inode: UInt64) -> Bool {
        guard let variable else { return false }
        let parts = variable.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let wantedDevice = UInt64(parts[0]), let wantedInode = UInt64(parts[1]) else { return false }
        return wantedDevice == device && wantedInode == inode
    }

    /// Whether this process's stderr is the journal now.
    package static func isStderrConnected(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        var status = stat()
        guard fstat(STDERR_FILENO, &status) == 0 else { return false }
        return matches(environment["JOURNAL_STREAM"], device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }
}
