import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A private Music Player Daemon (`mpd`, Debian's package) for one test, on 127.0.0.1 and a
/// reserved port, with its own music directory, database and state, playing to a null output in
/// real time. What the MPD clients of the tests are checked against while Tonearm's daemon is not
/// the server. When mpd is missing or does not come up, `init` throws with its log.
package final class MPDDaemonProcess: @unchecked Sendable {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        package init(description: String) { self.description = description }
    }

    package let directory: String
    package var musicDirectory: String { "\(directory)/music" }
    package var port: Int { reservation.port }
    private let reservation: PortReservation
    private var child: ChildProcess?

    /// Starts mpd once `prepare` has written the music files into the directory it is given (the
    /// client asks mpd to index them with `update`). It has a sticker database, as Debian's
    /// mpd.conf gives it, so `sticker` is one of its commands.
    package init(startTimeout: Double = 20, prepare: (String) throws -> Void) throws {
        var template = Array("/tmp/tmpd-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw Failure(description: "MPDDaemonProcess: mkdtemp failed")
        }
        directory = String(cString: made)
        reservation = try PortReservation()
        do {
            for sub in ["music", "playlists"] {
                try FileManager.default.createDirectory(atPath: "\(directory)/\(sub)", withIntermediateDirectories: true)
            }
            try prepare(musicDirectory)
            let config = """
                music_directory "\(directory)/music"
                playlist_directory "\(directory)/playlists"
                db_file "\(directory)/database"
                state_file "\(directory)/state"
                sticker_file "\(directory)/sticker.sql"
                log_file "\(directory)/mpd.log"
                bind_to_address "127.0.0.1"
                port "\(reservation.port)"
                auto_update "no"
                zeroconf_enabled "no"
                audio_output {
                    type "null"
                    name "null"
                    mixer_type "software"
                }

                """
            try config.write(toFile: "\(directory)/mpd.conf", atomically: true, encoding: .utf8)
            let executable = try SnapServer.which("mpd")
            let started = try ChildProcess(
                executable, ["--no-daemon", "\(directory)/mpd.conf"], environment: ProcessInfo.processInfo.environment,
                stdout: "\(directory)/mpd.out", stderr: "\(directory)/mpd.err")
            child = started
            let port = reservation.port
            let up = eventuallyBlocking(timeout: startTimeout, every: .milliseconds(50)) {
                guard started.exitStatus == nil else { return true }
                guard let fd = try? IcecastServer.connect(port: port) else { return false }
                Glibc.close(fd)
                return true
            }
            guard up, started.exitStatus == nil else { throw Failure(description: "mpd did not come up: \(log())") }
        } catch {
            stop()
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A client of this mpd once it has indexed its music directory (`update`, then until
    /// `status` has no `updating_db` and `stats` a `db_update`: files are listed before the
    /// update has ended).
    package func updatedClient(timeout: Double = 30) throws -> MPDLineClient {
        let client = try MPDLineClient("127.0.0.1:\(port)")
        _ = try client.command("update")
        let done = eventuallyBlocking(timeout: timeout) {
            guard let status = try? client.status(), let stats = try? client.command("stats") else { return false }
            return status["updating_db"] == nil && stats.fields.contains { $0.key == "db_update" }
        }
        guard done else { throw Failure(description: "mpd did not finish its update: \(log())") }
        return client
    }

    package func stop() {
        guard let child, child.exitStatus == nil else { return }
        child.send(SIGTERM)
        if child.wait(timeout: 5) == nil {
            child.send(SIGKILL)
            _ = child.wait(timeout: 5)
        }
    }

    package func log() -> String {
        let parts = ["mpd.err", "mpd.out", "mpd.log"].map { (try? String(contentsOfFile: "\(directory)/\($0)", encoding: .utf8)) ?? "" }
        return String(parts.joined(separator: "\n").suffix(4_000))
    }
}
