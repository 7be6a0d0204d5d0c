import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A client of snapserver's JSON-RPC control port (plain TCP, one JSON object a line), as
/// Snapcast's apps are: sends requests and keeps every line the server sent, notifications such
/// as `Stream.OnProperties` among them, for the test to wait on.
package final class SnapControlClient: @unchecked Sendable {
    private let descriptor: Int32
    /// The lines received, shared with the reading thread.
    private final class Received: Sendable {
        let lines = Mutex<[String]>([])
    }

    private let received = Received()
    private let ended = DispatchSemaphore(value: 0)

    package init(port: Int) throws {
        descriptor = try IcecastServer.connect(port: port)
        let fd = descriptor
        let received = self.received
        let ended = self.ended
        Thread.detachNewThread {
            var pending: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 8192)
            while true {
                let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                pending += chunk[..<count]
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                    pending.removeSubrange(...newline)
                    if !line.isEmpty { received.lines.withLock { $0.append(line) } }
                }
            }
            ended.signal()
        }
    }

    deinit {
        shutdown(descriptor, Int32(SHUT_RDWR))
        ended.wait()
        Glibc.close(descriptor)
    }

    /// Sends one JSON-RPC line.
    package func send(_ json: String) {
        let bytes = Array((json + "\r\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Every line received so far.
    package var lines: [String] { received.lines.withLock { $0 } }

    /// Waits until a line received after the first `skipping` satisfies `matches`; returns it,
    /// or nil after `timeout`.
    package func waitForLine(timeout: Double, skipping: Int = 0, _ matches: @escaping (String) -> Bool) -> String? {
        var found: String?
        _ = eventuallyBlocking(timeout: timeout, every: .milliseconds(20)) {
            found = lines.dropFirst(skipping).first(where: matches)
            return found != nil
        }
        return found
    }
}
