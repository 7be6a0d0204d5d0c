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

    /// `audio` with an ICY metadata block after every `metaint` bytes: `titles[i]` in the i-th
    /// block (empty blocks after the last title).
    static func icyBody(_ audio: Data, metaint: Int, titles: [String]) -> Data {
        var out = Data()
        var offset = 0
        var block = 0
        while offset + metaint <= audio.count {
            out.append(audio[audio.startIndex + offset..<audio.startIndex + offset + metaint])
            offset += metaint
            out.append(contentsOf: metadataBlock(block < titles.count ? "StreamTitle='\(titles[block])';" : ""))
            block += 1
        }
        out.append(audio[(audio.startIndex + offset)...])
        return out
    }

    /// One ICY metadata block: a length byte (16-byte units) and the text padded with zeros.
    static func metadataBlock(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        let units = (bytes.count + 15) / 16
        return [UInt8(units)] + bytes + [UInt8](repeating: 0, count: units * 16 - bytes.count)
    }

    /// Headers of an Icecast-like live MP3 answer.
    static func icyHeaders(metaint: Int?, name: String = "Fixture FM") -> [(String, String)] {
        var headers = [("Content-Type", "audio/mpeg"), ("icy-name", name), ("icy-genre", "Tests"), ("icy-br", "128")]
        if let metaint { headers.append(("icy-metaint", "\(metaint)")) }
        return headers
    }
}
