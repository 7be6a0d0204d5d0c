import Foundation
import TestProcesses

/// A real MP3 episode for the resumable-source tests, made once per test process by the `ffmpeg`
/// tool (a missing tool is a failure, never a skip): 20 s of a rising sweep at 128 kbit/s CBR with
/// LAME's Info header and no ID3v2 tag, so the mp3 demuxer would look for an ID3v1 tag at the end
/// of the file when the source's size is known while it opens.
enum EpisodeFixtures {
    static let sweep: Result<Data, FFmpegFixture.Failure> = FFmpegFixture.make(
        ["-f", "lavfi", "-i", "aevalsrc=0.5*sin(2*PI*(200+40*t)*t):s=44100:d=20",
         "-ac", "2", "-c:a", "libmp3lame", "-b:a", "128k", "-id3v2_version", "0"], fileName: "sweep.mp3")

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
