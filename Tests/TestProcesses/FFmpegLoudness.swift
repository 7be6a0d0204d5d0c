import Foundation

/// Loudness as FFmpeg's own `ebur128` filter measures it (integrated LUFS, true peak dBTP at 4x):
/// the independent reference the levelling tests check Tonearm's output against.
package struct FFmpegLoudness: Sendable, CustomStringConvertible {
    package let integrated: Double
    package let truePeak: Double

    package var description: String { "\(integrated) LUFS, \(truePeak) dBTP" }

    /// Measures `file` (any format ffmpeg reads), optionally only `seconds` from `start`.
    /// `truePeak: false` skips the 4x true-peak meter, the costly half (`truePeak` is then -inf).
    package static func measure(_ file: URL, from start: Double? = nil, seconds: Double? = nil, truePeak: Bool = true) throws
        -> FFmpegLoudness
    {
        guard let executable = AudioFixtures.ffmpegExecutable else {
            throw AudioFixtures.Failure(description: "The `ffmpeg` tool is not installed: `apt-get install ffmpeg`.")
        }
        var arguments = ["-nostdin", "-hide_banner", "-nostats"]
        if let start { arguments += ["-ss", String(start)] }
        if let seconds { arguments += ["-t", String(seconds)] }
        arguments += ["-i", file.path, "-af", "ebur128=\(truePeak ? "peak=true:" : "")framelog=verbose", "-f", "null", "-"]
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // The summary ends the output: "    I:   -16.0 LUFS" ... "    Peak:   -1.2 dBFS".
        func last(_ label: String) -> Double? {
            text.split(separator: "\n").reversed().lazy
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .first { $0.hasPrefix(label) }
                .flatMap { Double($0.dropFirst(label.count).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "") }
        }
        guard process.terminationStatus == 0, let integrated = last("I:"), let peak = last("Peak:") ?? (truePeak ? nil : -.infinity) else {
            throw AudioFixtures.Failure(description: "ffmpeg ebur128 failed on \(file.lastPathComponent): \(text.suffix(500))")
        }
        return FFmpegLoudness(integrated: integrated, truePeak: peak)
    }
}
