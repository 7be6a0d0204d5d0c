import Foundation
import TestProcesses

extension AudioFixtures {
    /// Stereo pink noise at `lufs` integrated loudness (checked with FFmpeg's meter, within 0.4
    /// LU), FLAC. `limit` keeps its peaks under that amplitude (a loud master is limited too).
    func noise(lufs: Double, seconds: Double = 20, seed: Int = 1, limit: Double? = nil, name: String) throws -> URL {
        let file = url(name)
        var gain = lufs + 13  // pink noise of amplitude 0.5 is about -13 LUFS
        for _ in 0..<8 {
            var filter = "volume=\(gain)dB"
            if let limit { filter += ",alimiter=limit=\(limit):level=false" }
            try ffmpeg([
                "-f", "lavfi", "-i", "anoisesrc=d=\(seconds):c=pink:r=48000:a=0.5:seed=\(seed)", "-ac", "2", "-af", filter,
                "-c:a", "flac", file.path,
            ])
            let measured = try FFmpegLoudness.measure(file, truePeak: false).integrated
            if abs(measured - lufs) <= 0.4 { return file }
            gain += lufs - measured
        }
        throw Failure(description: "could not make noise at \(lufs) LUFS")
    }
}
