import Foundation
import Logging
import MPDProtocol
import MPDServer
import Testing

/// The server over real sockets: TCP on a port the system picks, and a Unix socket in a
/// temporary directory; the backend is the test's own and records what reached it.
@Suite("MPD server")
struct MPDServerTests {
    @Test func answersOverTCPAndForwardsInOrder() async throws {
        let backend = RecordingBackend()
        let server = makeServer(backend, endpoints: [.tcp(host: "127.0.0.1", port: 0)])
        let addresses = try await server.start()
        guard case .tcp(_, let port) = addresses.first else { Issue.record("no TCP address"); return }
        #expect(port != 0)
        let client = try await TestClient.connect(to: addresses[0])
        #expect(try await client.next() == .greeting(version: "0.23.5"))
        try await client.send("status\nping\nplay 7\nadd \"a b\"\n")
        guard case .ok(let status) = try await client.next() else { Issue.record("no status"); return }
        #expect(status.fields.first == MPDResponse.Field("volume", "42"))
        #expect(try await client.next() == .ok(MPDResponse()))
        #expect(try await client.next() == .ack(MPDAck(.noExist, "No such song", command: "play")))
        #expect(try await client.next() == .ack(MPDAck(.argument, "not in this test", command: "add")))
        #expect(backend.commands == [MPDCommand("status"), MPDCommand("play", ["7"]), MPDCommand("add", ["a b"])])
        await client.close()
        await server.stop()
    }

    @Test func aValueWithANewlineCannotForgeAnAnswer() async throws {
        let backend = RecordingBackend()
        let server = makeServer(backend, endpoints: [.tcp(host: "127.0.0.1", port: 0)])
        let client = try await TestClient.connect(to: try await server.start()[0])
        _ = try await client.next()
        try await client.send("outputs\n")
        guard case .ok(let outputs) = try await client.next() else { Issue.record("no answer"); return }
        #expect(outputs.fields.contains(MPDResponse.Field("outputname", "Test output OK")))
        await client.close()
        await server.stop()
    }

    @Test func theUnixSocketIsPrivateAndRemovedOnStop() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("mpd.socket").path
        let logs = LogRecorder()
        let server = makeServer(RecordingBackend(), endpoints: [.unixSocket(path: path)], logs: logs)
        try await server.start()
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let client = try await TestClient.connect(to: .unixSocket(path: path))
        #expect(try await client.next() == .greeting(version: "0.23.5"))
        try await client.send("ping\n")
        #expect(try await client.next() == .ok(MPDResponse()))
        #expect(logs.lines.contains { $0.contains("client connected") && $0.contains("local socket") })
        await server.stop()
        await client.waitForClose()
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aStaleSocketIsReplacedButALiveOneIsNot() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("mpd.socket").path
        let first = makeServer(RecordingBackend(), endpoints: [.unixSocket(path: path)])
        try await first.start()
        let second = makeServer(RecordingBackend(), endpoints: [.unixSocket(path: path)])
        await #expect(throws: MPDServerError.socketInUse(path: path)) { try await second.start() }
        #expect(FileManager.default.fileExists(atPath: path), "the live server's socket is left alone")
        await first.stop()

        // A socket file nobody answers on (a server that died), made by binding and closing.
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in path.utf8CString.withUnsafeBytes { raw.copyMemory(from: $0) } }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        close(stale)
        #expect(FileManager.default.fileExists(atPath: path))
        let third = makeServer(RecordingBackend(), endpoints: [.unixSocket(path: path)])
        try await third.start()
        let client = try await TestClient.connect(to: .unixSocket(path: path))
        #expect(try await client.next() == .greeting(version: "0.23.5"))
        await third.stop()

        let file = directory.appendingPathComponent("not-a-socket").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data("keep".utf8)))
        let fourth = makeServer(RecordingBackend(), endpoints: [.unixSocket(path: file)])
        await #expect(throws: MPDServerError.pathIsNotASocket(path: file)) { try await fourth.start() }
        #expect(FileManager.default.contents(atPath: file) == Data("keep".utf8))
    }

    @Test(arguments: ["0.0.0.0", "::", "192.0.2.1", "example.org"])
    func listeningBeyondLoopbackNeedsAPassword(_ host: String) async throws {
        let logs = LogRecorder()
        let server = makeServer(RecordingBackend(), endpoints: [.tcp(host: host, port: 0)], logs: logs)
        do {
            try await server.start()
            Issue.record("started on \(host) without a password")
        } catch {
            #expect(error == .passwordRequired(.tcp(host: host, port: 0)))
            #expect(error.description.contains("--mpd-password"))
            #expect(error.description.contains("TONEARM_MPD_PASSWORD"))
        }
        #expect(logs.lines.contains { $0.contains("refused to start") })
        #expect(throws: Never.self) { try MPDListenPolicy.check([.tcp(host: host, port: 6600)], password: "secret") }
    }

    @Test(arguments: ["127.0.0.1", "127.3.4.5", "::1", "[::1]", "localhost", "::ffff:127.0.0.1"])
    func loopbackNeedsNoPassword(_ host: String) throws {
        try MPDListenPolicy.check([.tcp(host: host, port: 6600), .unixSocket(path: "/tmp/x")], password: nil)
    }

    @Test func aPasswordGuardsTheBackend() async throws {
        let backend = RecordingBackend()
        let server = makeServer(backend, endpoints: [.tcp(host: "127.0.0.1", port: 0)], password: "hunter2")
        let client = try await TestClient.connect(to: try await server.start()[0])
        _ = try await client.next()
        try await client.send("status\npassword nope\npassword hunter2\nstatus\n")
        #expect(try await client.next() == .ack(MPDAck(.permission, "you don't have permission for \"status\"", command: "status")))
        #expect(try await client.next() == .ack(MPDAck(.password, "incorrect password", command: "password")))
        #expect(try await client.next() == .ok(MPDResponse()))
        guard case .ok = try await client.next() else { Issue.record("status refused after the password"); return }
        #expect(backend.commands == [MPDCommand("status")])
        await client.close()
        await server.stop()
    }

    @Test func clientsBeyondTheLimitAreRefused() async throws {
        let logs = LogRecorder()
        let server = makeServer(
            RecordingBackend(), endpoints: [.tcp(host: "127.0.0.1", port: 0)], limits: MPDLimits(maxConnections: 2), logs: logs)
        let address = try await server.start()[0]
        let first = try await TestClient.connect(to: address)
        let second = try await TestClient.connect(to: address)
        #expect(try await first.next() == .greeting(version: "0.23.5"))
        #expect(try await second.next() == .greeting(version: "0.23.5"))
        let third = try await TestClient.connect(to: address)
        await #expect(throws: MPDAnswerReader.ReadError.self) { _ = try await third.next() }
        await third.waitForClose()
        #expect(logs.lines.contains { $0.contains("too many clients") })
        #expect(logs.lines.contains { $0.contains("client connected") && $0.contains("loopback") })
        #expect(!logs.lines.contains { $0.contains("client") && $0.contains("127.0.0.1") }, "no client addresses in the log")
        // A slot freed is a slot given.
        await first.close()
        var admitted = false
        for _ in 0..<200 where !admitted {
            let again = try await TestClient.connect(to: address)
            admitted = (try? await again.next()) == .greeting(version: "0.23.5")
            await again.close()
        }
        #expect(admitted)
        await second.close()
        await server.stop()
    }

    @Test func aTooLongLineIsAnACKAndAClose() async throws {
        let server = makeServer(RecordingBackend(), endpoints: [.tcp(host: "127.0.0.1", port: 0)], limits: MPDLimits(maxLineLength: 1024))
        let client = try await TestClient.connect(to: try await server.start()[0])
        _ = try await client.next()
        try await client.sendBytes(Array(repeating: 0x61, count: 4096))
        #expect(try await client.next() == .ack(MPDAck(.unknown, "Line too long")))
        await client.waitForClose()
        await server.stop()
    }

    @Test func aSilentClientIsDisconnected() async throws {
        let logs = LogRecorder()
        let server = makeServer(
            RecordingBackend(), endpoints: [.tcp(host: "127.0.0.1", port: 0)], limits: MPDLimits(silenceTimeout: .milliseconds(200)), logs: logs)
        let client = try await TestClient.connect(to: try await server.start()[0])
        #expect(try await client.next() == .greeting(version: "0.23.5"))
        await client.waitForClose()
        #expect(logs.lines.contains { $0.contains("silence timeout") })
        await server.stop()
    }

    @Test func idleReportsChangesMadeBeforeAndDuringIt() async throws {
        let backend = RecordingBackend()
        let server = makeServer(backend, endpoints: [.tcp(host: "127.0.0.1", port: 0)])
        let client = try await TestClient.connect(to: try await server.start()[0])
        _ = try await client.next()
        // The connection subscribes when it opens; a ping answered means it is in place.
        try await client.send("ping\n")
        _ = try await client.next()
        backend.emit(.mixer)
        // The change reaches the connection on its own time: idle for everything then sees it.
        try await client.send("idle\n")
        #expect(try await client.next() == .ok(MPDResponse([.init("changed", "mixer")])))
        try await client.send("idle player\n")
        backend.emit(.player)
        #expect(try await client.next() == .ok(MPDResponse([.init("changed", "player")])))
        try await client.send("idle playlist\nnoidle\n")
        #expect(try await client.next() == .ok(MPDResponse()))
        await client.close()
        await server.stop()
    }

    @Test func commandsWaitForTheOneBeforeThem() async throws {
        let backend = RecordingBackend(holdsPlay: true)
        let server = makeServer(backend, endpoints: [.tcp(host: "127.0.0.1", port: 0)])
        let client = try await TestClient.connect(to: try await server.start()[0])
        _ = try await client.next()
        var asked = backend.askedStream.makeAsyncIterator()
        try await client.send("play 1\nstatus\n")
        #expect(await asked.next() == MPDCommand("play", ["1"]))
        #expect(backend.commands == [MPDCommand("play", ["1"])], "status waits while play runs")
        backend.release()
        #expect(try await client.next() == .ack(MPDAck(.noExist, "No such song", command: "play")))
        guard case .ok = try await client.next() else { Issue.record("no status"); return }
        #expect(backend.commands == [MPDCommand("play", ["1"]), MPDCommand("status")])
        await client.close()
        await server.stop()
    }
}
