import Foundation
import MPDProtocol
import MPDServer
import Testing

/// The real `mpc` client (Debian's mpc 0.34, libmpdclient) against the server: it connects, reads
/// the greeting, sends its requests and prints what the test backend answered.
@Suite("MPD server with mpc", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/mpc")))
struct MPCTests {
    @Test func mpcOverAUnixSocket() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("mpd.socket").path
        let backend = RecordingBackend()
        let server = makeServer(backend, endpoints: [.unixSocket(path: path)])
        try await server.start()
        let version = try await run("/usr/bin/mpc", ["-h", path, "version"])
        #expect(version.status == 0, "\(version.output)")
        #expect(version.output.contains("mpd version: 0.23.5"))
        let status = try await run("/usr/bin/mpc", ["-h", path])
        #expect(status.status == 0, "\(status.output)")
        #expect(status.output.contains("volume: 42%"), "\(status.output)")
        #expect(backend.commands.contains(MPDCommand("status")))
        await server.stop()
    }

    @Test func mpcOverTCP() async throws {
        let backend = RecordingBackend()
        let server = makeServer(backend, endpoints: [.tcp(host: "127.0.0.1", port: 0)])
        guard case .tcp(_, let port) = try await server.start().first else { return }
        let outputs = try await run("/usr/bin/mpc", ["-h", "127.0.0.1", "-p", "\(port)", "outputs"])
        #expect(outputs.status == 0, "\(outputs.output)")
        #expect(outputs.output.contains("Output 1 (Test output OK) is enabled"), "\(outputs.output)")
        let volume = try await run("/usr/bin/mpc", ["-h", "127.0.0.1", "-p", "\(port)", "volume", "30"])
        #expect(volume.status == 0, "\(volume.output)")
        #expect(backend.commands.contains(MPDCommand("setvol", ["30"])))
        let play = try await run("/usr/bin/mpc", ["-h", "127.0.0.1", "-p", "\(port)", "play", "9"])
        #expect(play.status != 0)
        #expect(play.output.contains("No such song"), "\(play.output)")
        await server.stop()
    }

    @Test func mpcWithAPassword() async throws {
        let backend = RecordingBackend()
        let server = makeServer(backend, endpoints: [.tcp(host: "127.0.0.1", port: 0)], password: "hunter2")
        guard case .tcp(_, let port) = try await server.start().first else { return }
        let without = try await run("/usr/bin/mpc", ["-h", "127.0.0.1", "-p", "\(port)", "outputs"])
        #expect(without.status != 0)
        #expect(without.output.contains("permission"), "\(without.output)")
        let wrong = try await run("/usr/bin/mpc", ["-h", "nope@127.0.0.1", "-p", "\(port)", "outputs"])
        #expect(wrong.status != 0)
        #expect(wrong.output.contains("incorrect password"), "\(wrong.output)")
        #expect(backend.commands.isEmpty, "nothing reached the backend without the password")
        let right = try await run("/usr/bin/mpc", ["-h", "hunter2@127.0.0.1", "-p", "\(port)"])
        #expect(right.status == 0, "\(right.output)")
        #expect(right.output.contains("volume: 42%"), "\(right.output)")
        #expect(backend.commands.contains(MPDCommand("status")))
        await server.stop()
    }
}
