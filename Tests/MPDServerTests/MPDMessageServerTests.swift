import Foundation
import MPDProtocol
import MPDServer
import Testing

/// The client-to-client messages across real connections of one server (a TCP one and a Unix
/// socket one share the board), and `config`, which only the Unix socket's client is answered.
@Suite("MPD server: messages between connections, config")
struct MPDMessageServerTests {
    @Test func aMessageWakesTheSubscriberOnAnotherEndpointAndLeavesWithItsConnection() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("mpd.socket").path
        let backend = RecordingBackend()
        let server = makeServer(backend, endpoints: [.tcp(host: "127.0.0.1", port: 0), .unixSocket(path: path)])
        let addresses = try await server.start()
        let listener = try await TestClient.connect(to: addresses[1])
        let sender = try await TestClient.connect(to: addresses[0])
        _ = try await listener.next()
        _ = try await sender.next()

        try await listener.send("subscribe news\nidle message\n")
        #expect(try await listener.next() == .ok(MPDResponse()))
        try await sender.send("channels\nsendmessage news hello\n")
        #expect(try await sender.next() == .ok(MPDResponse([.init("channel", "news")])))
        #expect(try await sender.next() == .ok(MPDResponse()))
        #expect(try await listener.next() == .ok(MPDResponse([.init("changed", "message")])))
        try await listener.send("readmessages\n")
        #expect(try await listener.next() == .ok(MPDResponse([.init("channel", "news"), .init("message", "hello")])))
        // The backend never saw any of it.
        #expect(backend.commands.isEmpty)

        // A connection that closes takes its subscriptions with it.
        await listener.close()
        await listener.waitForClose()
        // The server hears of the close on its own loop: ask, one round trip at a time, until
        // the channel is gone (within a deadline), then a message finds nobody.
        let deadline = ContinuousClock.now + .seconds(10)
        var channels: MPDAnswerReader.Event?
        repeat {
            try await sender.send("channels\n")
            channels = try await sender.next()
        } while channels != .ok(MPDResponse()) && ContinuousClock.now < deadline
        #expect(channels == .ok(MPDResponse()))
        try await sender.send("sendmessage news again\n")
        #expect(try await sender.next() == .ack(MPDAck(.noExist, "nobody is subscribed to this channel", command: "sendmessage")))
        await sender.close()
        await server.stop()
    }

    @Test func configIsAnsweredOnTheUnixSocketAlone() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("mpd.socket").path
        let server = makeServer(RecordingBackend(), endpoints: [.tcp(host: "127.0.0.1", port: 0), .unixSocket(path: path)])
        let addresses = try await server.start()
        let remote = try await TestClient.connect(to: addresses[0])
        let local = try await TestClient.connect(to: addresses[1])
        _ = try await remote.next()
        _ = try await local.next()
        try await remote.send("config\n")
        #expect(try await remote.next() == .ack(MPDAck(.permission, "Command only permitted to local clients", command: "config")))
        try await local.send("config\n")
        // The test backend has no music directory: an empty answer, as mpd's without storage.
        #expect(try await local.next() == .ok(MPDResponse()))
        await remote.close()
        await local.close()
        await server.stop()
    }
}
