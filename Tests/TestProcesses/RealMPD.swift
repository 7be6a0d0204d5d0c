import Foundation

/// A real Music Player Daemon (Debian's `mpd`) on a Unix socket of its own, with a null output
/// and `musicDirectory` scanned, so a test can ask it what Tonearm is asked and compare.
package final class RealMPD: @unchecked Sendable {
    package let socket: String
    private let directory: URL
    private let process: ChildProcess

    package init(musicDirectory: URL, timeout: Double = 30) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("real-mpd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        socket = directory.appendingPathComponent("socket").path
        let config = """
            music_directory "\(musicDirectory.path)"
            db_file "\(directory.appendingPathComponent("db").path)"
            log_file "\(directory.appendingPathComponent("log").path)"
            bind_to_address "\(socket)"
            auto_update "no"
            zeroconf_enabled "no"
            audio_output {
                type "null"
                name "null"
                mixer_type "software"
            }

            """
        let configFile = directory.appendingPathComponent("mpd.conf")
        try config.write(to: configFile, atomically: true, encoding: .utf8)
        process = try ChildProcess(
            "/usr/bin/mpd", ["--no-daemon", "--stderr", configFile.path], environment: ProcessInfo.processInfo.environment,
            stdout: directory.appendingPathComponent("out").path, stderr: directory.appendingPathComponent("err").path)
        guard eventuallyBlocking(timeout: timeout, { (try? MPDLineClient(socket)) != nil }) else {
            stop()
            let err = (try? String(contentsOf: directory.appendingPathComponent("err"), encoding: .utf8)) ?? ""
            throw ChildProcess.SpawnError(description: "mpd did not answer on \(socket) within \(timeout) s: \(err)")
        }
        let client = try MPDLineClient(socket)
        _ = try client.command("update")
        guard eventuallyBlocking(timeout: timeout, { (try? client.value("status", "updating_db")) == nil }) else {
            stop()
            throw ChildProcess.SpawnError(description: "mpd did not finish scanning \(musicDirectory.path)")
        }
    }

    package func stop() {
        process.send(SIGTERM)
        if process.wait(timeout: 10) == nil {
            process.send(SIGKILL)
            _ = process.wait(timeout: 5)
        }
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}
