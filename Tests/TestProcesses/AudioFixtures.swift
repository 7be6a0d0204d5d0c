import Foundation

/// Test audio made by the `ffmpeg` command-line tool in a temporary directory of its own, so tests
/// running in parallel never share a file. The directory goes when the fixtures object does.
///
/// A missing `ffmpeg` binary is a failure, never a skip: the decoder tests are the only proof that
/// the real FFmpeg path works, and a silently skipped suite would hide that.
package final class AudioFixtures {
    package let directory: URL

    /// The encoders the decoder must handle, with the container each is written in.
    package enum Codec: String, Sendable, CaseIterable, CustomStringConvertible {
        case mp3, aac, vorbis, opus, flac, wav

        package var fileExtension: String {
            switch self {
            case .mp3: "mp3"
            case .aac: "m4a"
            case .vorbis: "ogg"
            case .opus: "opus"
            case .flac: "flac"
            case .wav: "wav"
            }
        }

        package var encoderArguments: [String] {
            switch self {
            case .mp3: ["-c:a", "libmp3lame", "-b:a", "128k"]
            case .aac: ["-c:a", "aac", "-b:a", "128k"]
            case .vorbis: ["-c:a", "libvorbis", "-q:a", "5"]
            case .opus: ["-c:a", "libopus", "-b:a", "128k"]
            case .flac: ["-c:a", "flac"]
            case .wav: ["-c:a", "pcm_s16le"]
            }
        }

        /// Decodes to exactly the samples that were encoded (apart from 16-bit quantisation).
        package var isLossless: Bool { self == .flac || self == .wav }

        package var description: String { rawValue }
    }

    package struct Failure: Error, CustomStringConvertible {
        package let description: String

        package init(description: String) { self.description = description }
    }

    package init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("tonearm-decoder-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        // chmod 000 fixtures inside are still removable: removal needs rights on the directory.
        try? FileManager.default.removeItem(at: directory)
    }

    package func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// A sine tone written with `codec`: `amplitude` peak, the same on every channel.
    /// `layout` is an FFmpeg channel layout name (`mono`, `stereo`, `5.1`).
    @discardableResult
    package func sine(
        _ codec: Codec, sampleRate: Int, layout: String = "stereo", seconds: Double = 2,
        frequency: Double = 440, amplitude: Double = 0.5, name: String? = nil
    ) throws -> URL {
        let channels = ["mono": 1, "stereo": 2, "5.1": 6][layout] ?? 2
        let expression = Array(repeating: "\(amplitude)*sin(2*PI*\(frequency)*t)", count: channels)
            .joined(separator: "|")
        let output = url(name ?? "sine-\(sampleRate)-\(layout).\(codec.fileExtension)")
        try ffmpeg(
            ["-f", "lavfi", "-i", "aevalsrc=\(expression):s=\(sampleRate):c=\(layout):d=\(seconds)"]
                + codec.encoderArguments + [output.path])
        return output
    }

    /// Writes `bytes` to a file in the fixture directory.
    @discardableResult
    package func write(_ name: String, _ bytes: Data) throws -> URL {
        let file = url(name)
        try bytes.write(to: file)
        return file
    }

    /// Frames the `ffmpeg` tool itself decodes from `file` at 48 kHz: the reference for inputs
    /// whose exact content is hard to predict (a truncated Ogg file, whose headers take a third).
    package func referenceFrameCount(_ file: URL) throws -> Int {
        let raw = url("reference-\(UUID().uuidString).f32")
        try ffmpeg(["-i", file.path, "-f", "f32le", "-ac", "2", "-ar", "48000", raw.path])
        let size = try FileManager.default.attributesOfItem(atPath: raw.path)[.size] as? Int ?? 0
        try? FileManager.default.removeItem(at: raw)
        return size / (2 * MemoryLayout<Float>.size)
    }

    /// Runs `ffmpeg` with an argument vector (never a shell string) and fails with its error
    /// output when it does not succeed.
    package func ffmpeg(_ arguments: [String]) throws {
        guard let executable = Self.ffmpegExecutable else {
            throw Failure(
                description: "The `ffmpeg` command-line tool is not installed (not on PATH): the decoder tests "
                    + "generate their audio with it. Install it with `apt-get install ffmpeg`.")
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(
                description: "ffmpeg \(arguments.joined(separator: " ")) failed (\(process.terminationStatus)): "
                    + String(decoding: output, as: UTF8.self))
        }
    }

    package static let ffmpegExecutable: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").lazy
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent("ffmpeg") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()
}
