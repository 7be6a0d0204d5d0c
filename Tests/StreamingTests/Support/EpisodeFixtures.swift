import Foundation
import TestProcesses

/// A real MP3 episode for the resumable-source tests, made once per test process by the `ffmpeg`
/// tool (a missing tool is a failure, never a skip): 20 s of a rising sweep at 128 kbit/s CBR with
/// LAME's Info header and no ID3v2 tag, so the mp3 demuxer would look for an ID3v1 tag at the end
/// of the file when the source's size is known while it opens.
enum EpisodeFixtures {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let sweep: Result<Data, Failure> = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-episode-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let output = directory.appendingPathComponent("sweep.mp3").path
            let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }
            guard let ffmpeg else { return .failure(Failure(description: "ffmpeg is not installed (apt-get install ffmpeg)")) }
            let child = try ChildProcess(
                ffmpeg,
                ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "aevalsrc=0.5*sin(2*PI*(200+40*t)*t):s=44100:d=20",
                 "-ac", "2", "-c:a", "libmp3lame", "-b:a", "128k", "-id3v2_version", "0", output],
                environment: ProcessInfo.processInfo.environment, stdout: "/dev/null", stderr: directory.appendingPathComponent("err").path)
            guard child.wait(timeout: 30) == 0 else {
                return .failure(Failure(description: "ffmpeg failed to make the MP3 fixture"))
            }
            return .success(try Data(contentsOf: URL(fileURLWithPath: output)))
        } catch {
            return .failure(Failure(description: "MP3 fixture: \(error)"))
        }
    }()

    static func mp3() throws -> Data { try sweep.get() }

    /// Bytes that never repeat in a way a wrong offset could hide (each 4-byte word is its index).
    static func counting(_ count: Int) -> Data {
        var data = Data(capacity: count)
        var index: UInt32 = 0
        while data.count < count {
            withUnsafeBytes(of: index.bigEndian) { data.append(contentsOf: $0) }
            index += 1
        }
        return data.prefix(count)
    }
}
