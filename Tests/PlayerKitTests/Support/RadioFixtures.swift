import Foundation
import TestProcesses

/// Real MP3 audio for the scripted HTTP servers, made once per test process by the `ffmpeg` tool
/// (a missing tool is a failure, never a skip), and ICY bodies built from it.
enum RadioFixtures {
    /// 20 s of a 440 Hz tone, MP3 at 128 kbit/s (16,000 bytes a second).
    static let mp3: Result<Data, FFmpegFixture.Failure> = FFmpegFixture.make(
        ["-f", "lavfi", "-i", "sine=frequency=440:duration=20:sample_rate=44100",
         "-ac", "2", "-c:a", "libmp3lame", "-b:a", "128k"], fileName: "tone.mp3")

    static func audio() throws -> Data { try mp3.get() }

    static func icyBody(_ audio: Data, metaint: Int, titles: [String]) -> Data { IcyBody.make(audio, metaint: metaint, titles: titles) }

    static func metadataBlock(_ text: String) -> [UInt8] { IcyBody.metadataBlock(text) }

    /// Headers of an Icecast-like live MP3 answer.
    static func icyHeaders(metaint: Int?, name: String = "Fixture FM") -> [(String, String)] {
        var headers = [("Content-Type", "audio/mpeg"), ("icy-name", name), ("icy-genre", "Tests"), ("icy-br", "128")]
        if let metaint { headers.append(("icy-metaint", "\(metaint)")) }
        return headers
    }
}
