import Foundation

/// Temporary directories for the artwork cache tests (the pictures come from `ImageFixture`).
enum ArtworkFixtures {
    /// A fresh empty directory under the system's temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-artwork-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// A counter a `TestHTTPServer` route can change (routes are `@Sendable` closures).
final class RequestCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    /// Counts one more and returns the new count (1 for the first request).
    func next() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}
