import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc

    /// The system calls the log file uses, under names that do not clash with its own methods.
    private enum System {
        static func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { Glibc.open(path, flags, mode) }
        static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int { Glibc.write(descriptor, bytes.baseAddress, bytes.count) }
        static func close(_ descriptor: Int32) { _ = Glibc.close(descriptor) }
        static func rename(_ from: String, _ to: String) { _ = Glibc.rename(from, to) }
    }
#elseif canImport(Darwin)
    import Darwin

    /// The system calls the log file uses, under names that do not clash with its own methods.
    private enum System {
        static func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { Darwin.open(path, flags, mode) }
        static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int { Darwin.write(descriptor, bytes.baseAddress, bytes.count) }
        static func close(_ descriptor: Int32) { _ = Darwin.close(descriptor) }
        static func rename(_ from: String, _ to: String) { _ = Darwin.rename(from, to) }
    }
#endif

/// A log file that never grows past a cap: when the next line would pass `maxBytes`, the file
/// becomes `name.1`, `name.1` becomes `name.2`, and so on up to `name.<keptFiles>`; the oldest
/// is deleted. A listener can send the whole set with a report and it stays small.
///
/// Why hand-written: swift-log ships only a stream handler and a no-op one, and none of the
/// file-backend packages for it are among the packages this project can build with, while what
/// Tonearm needs (append, cap, rotate, create the folder) is a few system calls.
///
/// Each line is written with one `write(2)` on a descriptor opened with `O_APPEND`, so records of
/// concurrent threads never interleave, and a line written before the process exits (a failing
/// command calls `exit`) is already in the file. The size is counted from what this process wrote
/// after `fstat` at opening; a second process appending at the same time may make a file a little
/// longer than the cap before its next rotation.
///
/// Thread-safe: the descriptor and counters live in a `Mutex`. The folder is created (mode 0700)
/// on the first write when it is missing; the file is made with mode 0600, as it may hold hosts
/// and error texts of the user.
package final class RotatingLogFile: Sendable {
    /// How large a file may grow and how many rotated files are kept.
    package struct Policy: Sendable, Equatable {
        /// The cap of one file, in bytes.
        package var maxBytes: Int
        /// Rotated files kept beside the current one (`name.1` ... `name.<keptFiles>`).
        package var keptFiles: Int

        /// 5 MiB and three old files: about 20 MiB at most, hours of `debug` records.
        package static let standard = Policy(maxBytes: 5 << 20, keptFiles: 3)

        package init(maxBytes: Int, keptFiles: Int) {
            self.maxBytes = max(1, maxBytes)
            self.keptFiles = max(0, keptFiles)
        }
    }

    package let url: URL
    package let policy: Policy
    private let onFailure: @Sendable (String) -> Void

    private struct State {
        var descriptor: Int32 = -1
        var size = 0
        /// A failure to open or write is reported once, not once per record.
        var reportedFailure = false
    }

    private let state = Mutex(State())

    /// - Parameters:
    ///   - onFailure: told (once) when the file cannot be opened or written; records are then
    ///     dropped rather than stopping playback. The executable prints it on stderr.
    package init(url: URL, policy: Policy = .standard, onFailure: @escaping @Sendable (String) -> Void = { _ in }) {
        self.url = url
        self.policy = policy
        self.onFailure = onFailure
    }

    deinit {
        state.withLock { state in
            if state.descriptor >= 0 { System.close(state.descriptor) }
        }
    }

    /// The rotated file number `index` (1 is the most recent).
    package func rotatedURL(_ index: Int) -> URL {
        url.deletingLastPathComponent().appendingPathComponent("\(url.lastPathComponent).\(index)")
    }

    /// Appends `line` and a newline, rotating first when the file would pass the cap.
    package func write(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        let failure: String? = state.withLock { state in
            if state.descriptor >= 0, state.size > 0, state.size + bytes.count > policy.maxBytes {
                System.close(state.descriptor)
                state.descriptor = -1
                rotate()
            }
            if state.descriptor < 0 {
                guard let opened = open() else { return report(&state, "cannot open \(url.path): \(Self.errnoText())") }
                state.descriptor = opened.descriptor
                state.size = opened.size
            }
            let written = bytes.withUnsafeBytes { System.write(state.descriptor, $0) }
            guard written == bytes.count else { return report(&state, "cannot write \(url.path): \(Self.errnoText())") }
            state.size += written
            return nil
        }
        if let failure { onFailure(failure) }
    }

    /// Closes the file; the next write opens it again.
    package func close() {
        state.withLock { state in
            if state.descriptor >= 0 { System.close(state.descriptor) }
            state.descriptor = -1
        }
    }

    private func report(_ state: inout State, _ message: String) -> String? {
        guard !state.reportedFailure else { return nil }
        state.reportedFailure = true
        return message
    }

    /// Shifts `name.i` to `name.i+1` from the oldest down, dropping what passes `keptFiles`, then
    /// moves the current file to `name.1` (or deletes it when no rotated file is kept).
    private func rotate() {
        let manager = FileManager.default
        guard policy.keptFiles > 0 else {
            try? manager.removeItem(at: url)
            return
        }
        try? manager.removeItem(at: rotatedURL(policy.keptFiles))
        if policy.keptFiles > 1 {
            for index in stride(from: policy.keptFiles - 1, through: 1, by: -1) {
                System.rename(rotatedURL(index).path, rotatedURL(index + 1).path)
            }
        }
        System.rename(url.path, rotatedURL(1).path)
    }

    /// Opens (creating the folder and the file when missing) for appending; nil on failure.
    private func open() -> (descriptor: Int32, size: Int)? {
        let folder = url.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: folder.path) {
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let descriptor = System.open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        let size = fstat(descriptor, &info) == 0 ? Int(info.st_size) : 0
        return (descriptor, size)
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
