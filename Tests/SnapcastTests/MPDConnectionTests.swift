import Foundation
import MPDProtocol
import Synchronization
import Testing

@testable import Snapcast

#if canImport(Glibc)
    import Glibc
#endif

/// The control script's MPD client writes MPDProtocol's request lines and reads answers with
/// MPDProtocol's reader: what a server sends back reaches it as fields, an `ACK` or an I/O error.
@Suite("Snapcast's MPD connection")
struct MPDConnectionTests {
    @Test func requestsAreMPDProtocolsLinesAndAnswersItsFields() throws {
        let server = try ScriptedMPDServer(answers: ["OK\n", "volume: 42\nstate: play\nOK\n", "ACK [50@0] {play} No such song\n", "OK\n"])
        let connection = try MPDConnection(.unix(path: server.path))
        #expect(connection.serverVersion == "0.23.5")
        try connection.run(MPDCommand("add", [#"a "quoted" \ name.flac"#]))
        #expect(try connection.run(MPDCommand("status")) == [.init("volume", "42"), .init("state", "play")])
        #expect(throws: MPDConnectionError.ack("ACK [50@0] {play} No such song")) { try connection.run(MPDCommand("play", ["9"])) }
        // A line no request can carry is refused before anything is sent.
        #expect(throws: MPDConnectionError.self) { try connection.run(MPDCommand("add", ["a\nplay"])) }
        try connection.run(MPDCommand("ping"))
        let expected = [#"add "a \"quoted\" \\ name.flac""#, "status", #"play "9""#, "ping"]
        #expect(server.requests(count: expected.count) == expected)
    }

    @Test func whatIsNotMPDIsAnIOError() throws {
        let server = try ScriptedMPDServer(greeting: "SSH-2.0-OpenSSH\n", answers: [])
        let error = #expect(throws: MPDConnectionError.self) { try MPDConnection(.unix(path: server.path)) }
        guard case .io(let text) = error else {
            Issue.record("not an I/O error: \(String(describing: error))")
            return
        }
        #expect(text.contains("SSH-2.0"), "\(text)")
    }
}

/// A one-client server of the test's own on a Unix socket: it greets, then answers each request
/// line with the next of its answers and records the line.
final class ScriptedMPDServer: Sendable {
    let path: String
    private let lines = Mutex<[String]>([])

    init(greeting: String = "OK MPD 0.23.5\n", answers: [String]) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-mpd-\(UUID().uuidString.prefix(8)).sock").path
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(listener, 1) == 0 else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        let thread = Thread { [self] in
            defer {
                close(listener)
                unlink(path)
            }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            defer { close(client) }
            func write(_ text: String) { _ = Array(text.utf8).withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
            write(greeting)
            var pending: [UInt8] = []
            for answer in answers {
                while !pending.contains(0x0A) {
                    var chunk = [UInt8](repeating: 0, count: 1024)
                    let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                    guard count > 0 else { return }
                    pending += chunk[..<count]
                }
                let newline = pending.firstIndex(of: 0x0A)!
                lines.withLock { $0.append(String(decoding: pending[..<newline], as: UTF8.self)) }
                pending.removeSubrange(...newline)
                write(answer)
            }
            // The client's end, before the socket goes.
            var rest = [UInt8](repeating: 0, count: 64)
            _ = rest.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
        }
        thread.start()
    }

    /// The request lines read so far, waiting a moment for `count` of them.
    func requests(count: Int) -> [String] {
        for _ in 0..<100 where lines.withLock({ $0.count }) < count { Thread.sleep(forTimeInterval: 0.01) }
        return lines.withLock { $0 }
    }
}
