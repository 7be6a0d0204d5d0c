import Foundation
import TestProcesses

/// Real PNG and JPEG files made at test time by the `ffmpeg` CLI (spawned with an argument vector),
/// so the decoder is tested against what a real encoder writes, not bytes typed into the test.
enum ArtworkFixtures {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// A solid `color` (`0xRRGGBB`) picture of `size` as `format` ("png" or "jpg"), optionally
    /// converted to `pixelFormat` before encoding (pal8, rgba, gray, yuvj444p...).
    static func image(color: String = "0x336699", size: String = "64x48", format: String = "png", pixelFormat: String? = nil) throws -> Data {
        try image(source: "color=c=\(color):s=\(size)", format: format, pixelFormat: pixelFormat)
    }

    /// A picture from any lavfi `source` graph (e.g. two colours side by side).
    static func image(source: String, format: String = "png", pixelFormat: String? = nil) throws -> Data {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("fixture.\(format)").path
        var arguments = ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", source, "-frames:v", "1"]
        if let pixelFormat { arguments += ["-pix_fmt", pixelFormat] }
        if format == "jpg" { arguments += ["-q:v", "2"] }
        arguments.append(output)
        let log = directory.appendingPathComponent("ffmpeg.log").path
        let child = try ChildProcess(
            ffmpegPath, arguments, environment: ["PATH": "/usr/bin:/bin"], stdout: "/dev/null", stderr: log)
        let status = child.wait(timeout: 60)
        guard status == 0 else {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw Failure(description: "ffmpeg exited with \(String(describing: status)): \(text)")
        }
        return try Data(contentsOf: URL(fileURLWithPath: output))
    }

    static var ffmpegPath: String {
        ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/bin/ffmpeg"
    }

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
