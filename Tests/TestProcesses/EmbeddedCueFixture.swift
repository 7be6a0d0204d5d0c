import Foundation

/// FLAC files with a cue sheet inside, made as rippers make them: ffmpeg's image of three tones
/// (2 s, 3 s, 2.5 s at 44.1 kHz), then `metaflac` (Debian's `flac`) writes the sheet either as a
/// `CUESHEET` metadata block (`--import-cuesheet-from`) or as a `CUESHEET` Vorbis comment
/// (`--set-tag-from-file`). The third track has a pregap (`INDEX 00` before its `INDEX 01`), so
/// a reader that starts a track at its first index point, not its `INDEX 01`, is caught.
package enum EmbeddedCueFixture {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    package enum Form: String, Sendable {
        case comment, block
    }

    package static let sheet = """
        REM GENRE "Ambient"
        REM DATE 2020
        PERFORMER "Tone Band"
        TITLE "Three Tones"
        FILE "image.flac" WAVE
          TRACK 01 AUDIO
            TITLE "Low"
            INDEX 01 00:00:00
          TRACK 02 AUDIO
            TITLE "Middle"
            PERFORMER "Guest"
            INDEX 01 00:02:00
          TRACK 03 AUDIO
            TITLE "High"
            INDEX 00 00:04:70
            INDEX 01 00:05:00

        """

    /// The three tones as one FLAC, tagged with `title` and an artist and album of its own.
    package static func image(title: String) throws -> Data {
        let tones = [(300, 2.0), (1_000, 3.0), (2_500, 2.5)]
        let inputs = tones.flatMap { ["-f", "lavfi", "-i", "sine=frequency=\($0.0):duration=\($0.1):sample_rate=44100"] }
        return try FFmpegFixture.make(
            inputs + [
                "-filter_complex", "[0][1][2]concat=n=3:v=0:a=1", "-c:a", "flac", "-metadata", "title=\(title)", "-metadata", "artist=Image Artist",
                "-metadata", "album=Image Album",
            ], fileName: "image.flac"
        ).get()
    }

    /// Writes the image to `url` with `sheet` embedded in `form`.
    package static func write(to url: URL, title: String, form: Form, sheet: String = sheet) throws {
        try image(title: title).write(to: url)
        let cue = url.deletingLastPathComponent().appendingPathComponent(".sheet-\(UUID().uuidString).cue")
        try Data(sheet.utf8).write(to: cue)
        defer { try? FileManager.default.removeItem(at: cue) }
        let option = form == .block ? "--import-cuesheet-from=\(cue.path)" : "--set-tag-from-file=CUESHEET=\(cue.path)"
        try metaflac([option, url.path])
    }

    /// Runs `metaflac` with `arguments`; throws with its error output when it fails.
    package static func metaflac(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try IcecastServer.which("metaflac", hint: "apt-get install flac"))
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "metaflac \(arguments): \(String(decoding: message, as: UTF8.self))")
        }
    }

    /// `flac` with a metadata block of `type` holding `body` put in after its STREAMINFO (which
    /// ffmpeg never writes last): how a test makes a block metaflac would refuse to write.
    package static func inserting(block type: UInt8, body: Data, into flac: Data) throws -> Data {
        let bytes = [UInt8](flac)
        guard bytes.count > 42, bytes.starts(with: Array("fLaC".utf8)), bytes[4] & 0x7F == 0, bytes[4] & 0x80 == 0 else {
            throw Failure(description: "not a FLAC with more than its STREAMINFO")
        }
        let length = body.count
        let header: [UInt8] = [type & 0x7F, UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        return Data(bytes[0..<42] + header + [UInt8](body) + bytes[42...])
    }
}
