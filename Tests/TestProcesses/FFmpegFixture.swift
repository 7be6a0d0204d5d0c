import Foundation

/// Audio fixtures made by the `ffmpeg` tool, for the tests that need real encoded audio. A missing
/// tool or a failed run is a failure with the reason, never a skip.
package enum FFmpegFixture {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Runs `ffmpeg -nostdin -v error -y <arguments> <output>` into a temporary file named
    /// `fileName` and returns its bytes.
    package static func make(_ arguments: [String], fileName: String) -> Result<Data, Failure> {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-fixture-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let output = directory.appendingPathComponent(fileName).path
            let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }
            guard let ffmpeg else { return .failure(Failure(description: "ffmpeg is not installed (apt-get install ffmpeg)")) }
            let child = try ChildProcess(
                ffmpeg, ["-nostdin", "-v", "error", "-y"] + arguments + [output],
                environment: ProcessInfo.processInfo.environment, stdout: "/dev/null", stderr: directory.appendingPathComponent("err").path)
            guard child.wait(timeout: 30) == 0 else {
                let errors = (try? String(contentsOf: directory.appendingPathComponent("err"), encoding: .utf8)) ?? ""
                return .failure(Failure(description: "ffmpeg failed to make \(fileName): \(errors)"))
            }
            return .success(try Data(contentsOf: URL(fileURLWithPath: output)))
        } catch {
            return .failure(Failure(description: "\(fileName) fixture: \(error)"))
        }
    }
}
