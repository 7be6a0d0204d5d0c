import Foundation
import PlayerCore

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's alarms on disk: `alarms.json` beside the library (`$XDG_DATA_HOME/tonearm`), so
/// they outlive a reboot and a restart of the daemon. `tonearm alarm` changes it under an
/// flock(2) on `alarms.lock` and replaces it in one rename; the daemon reads it when it starts
/// and whenever the rename lands (`AlarmFileWatch`).
package struct AlarmFile: Sendable {
    package let directory: URL

    package init(directory: URL = XDGDirectories().data) {
        self.directory = directory
    }

    package static let fileName = "alarms.json"
    package var url: URL { directory.appendingPathComponent(Self.fileName, isDirectory: false) }
    var lockURL: URL { directory.appendingPathComponent("alarms.lock", isDirectory: false) }

    /// The alarms kept; none when the file does not exist yet.
    package func read() throws(PlaybackError) -> AlarmList {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return AlarmList()
        } catch {
            throw PlaybackError.from(error)
        }
        do {
            return try JSONDecoder().decode(AlarmList.self, from: data)
        } catch {
            throw PlaybackError(.malformedData, underlying: "the alarms file cannot be read: \(error)")
        }
    }

    /// Reads, changes and writes the list with no other command in between; returns `body`'s result.
    package func update<T>(_ body: (inout AlarmList) throws(PlaybackError) -> T) throws(PlaybackError) -> T {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw PlaybackError.from(error)
        }
        let lock = open(lockURL.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw PlaybackError.from(errno: errno, underlying: "cannot open the alarms' lock file") }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let failure = errno
                _ = close(lock)
                throw PlaybackError.from(errno: failure, underlying: "cannot lock the alarms' file")
            }
        }
        defer { LockFile.unlockAndClose(lock) }
        var list = try read()
        let result = try body(&list)
        try write(list)
        return result
    }

    private func write(_ list: AlarmList) throws(PlaybackError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let temporary = directory.appendingPathComponent(".\(Self.fileName).\(getpid())")
        let data: Data
        do {
            data = try encoder.encode(list)
        } catch {
            throw PlaybackError(.unknown, underlying: "cannot encode the alarms: \(error)")
        }
        guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw PlaybackError.from(errno: errno, underlying: "cannot write the alarms' file")
        }
        guard rename(temporary.path, url.path) == 0 else {
            let failure = errno
            _ = unlink(temporary.path)
            throw PlaybackError.from(errno: failure, underlying: "cannot write the alarms' file")
        }
    }
}
