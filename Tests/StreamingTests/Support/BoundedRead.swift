import Foundation
import PlayerCore
import Streaming

/// Reads until `count` bytes, the end (0), an error, or `timeout` seconds: then the source is
/// closed, so the read throws `.cancelled` and a test can never hang. Blocks: call it off the pool.
func readUpTo(_ source: HTTPByteSource, count: Int, timeout: Double) throws -> [UInt8] {
    let finished = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        if finished.wait(timeout: .now() + timeout) == .timedOut { source.close() }
    }
    defer { finished.signal() }
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 8192)
    while result.count < count {
        let got = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
        if got == 0 { break }
        result.append(contentsOf: buffer[0..<min(got, count - result.count)])
    }
    return result
}
