import Foundation
import TestProcesses
import Testing

/// `getfingerprint` as mpd answers it: chromaprint's fingerprint of the song's first two
/// minutes, checked against chromaprint's own `fpcalc` (Debian's libchromaprint-tools) on the
/// same file.
///
/// mpd itself is not the oracle here: its `getfingerprint` now and then never answers (an open
/// upstream bug, MusicPlayerDaemon/MPD#2286; a CI run waited two minutes on it), and a test that
/// waits on a peer's hang is a flaky test. mpd feeds the same library the same first 120 s of
/// audio, and on the files it did answer for, its fingerprint was fpcalc's to the byte.
@Suite("MPD getfingerprint compared with fpcalc", .serialized, .blocking)
struct MPDFingerprintTests {
    /// Files ffmpeg makes: a stereo 44.1 kHz FLAC of a tone in noise, the same in mono at 22.05 kHz
    /// as FLAC and as WAV, and a stereo 48 kHz FLAC longer than the two minutes fingerprinted; and a
    /// file named like audio that is not.
    static func makeMusic(in directory: String) throws {
        func ffmpeg(_ arguments: [String]) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
            process.arguments = ["-nostdin", "-loglevel", "error", "-y"] + arguments
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "ffmpeg \(arguments)")
        }
        let noisyTone = "sine=frequency=440:duration=%d[a];anoisesrc=d=%d:c=pink:seed=7[b];[a][b]amix=inputs=2"
        try ffmpeg(["-filter_complex", String(format: noisyTone, 20, 20), "-ar", "44100", "-ac", "2", "-sample_fmt", "s16", "\(directory)/stereo.flac"])
        for file in ["mono.flac", "mono.wav"] {
            try ffmpeg(["-filter_complex", String(format: noisyTone, 15, 15), "-ar", "22050", "-ac", "1", "-sample_fmt", "s16", "\(directory)/\(file)"])
        }
        try ffmpeg(["-filter_complex", String(format: noisyTone, 150, 150), "-ar", "48000", "-ac", "2", "-sample_fmt", "s16", "\(directory)/long.flac"])
        try "not audio at all".write(toFile: "\(directory)/notes.flac", atomically: true, encoding: .utf8)
    }

    /// `fpcalc -plain`: the compressed fingerprint in base64 of the first 120 s (its default).
    static func fpcalc(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/fpcalc")
        process.arguments = ["-plain", "-length", "120", path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!text.isEmpty, "fpcalc printed no fingerprint for \(path) (is libchromaprint-tools installed?)")
        return text
    }

    @Test func theFingerprintIsChromaprints() throws {
        let music = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-fingerprint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: music) }
        try Self.makeMusic(in: music.path)
        let daemon = try ServeDaemon(music: music)
        let client = try daemon.client()
        for name in ["stereo.flac", "mono.flac", "mono.wav", "long.flac"] {
            let expected = try Self.fpcalc(music.appendingPathComponent(name).path)
            let answer = try client.command("getfingerprint \"Music/\(name)\"")
            #expect(answer.ack == nil, "\(name): \(answer.ack ?? "")\n\(daemon.logTail)")
            #expect(answer.fields.map(\.key) == ["chromaprint"], "\(name)")
            #expect(answer.fields.first?.value == expected, "\(name): tonearm and fpcalc differ")
        }
    }

    @Test func aSongThatCannotBeReadIsASystemError() throws {
        let music = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-fingerprint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: music) }
        try Self.makeMusic(in: music.path)
        let daemon = try ServeDaemon(music: music)
        let client = try daemon.client()
        #expect(try client.command("getfingerprint Music/missing.flac").ack == "ACK [52@0] {getfingerprint} Failed to open 'Music/missing.flac': No such file or directory")
        #expect(try client.command("getfingerprint Music/notes.flac").ack == "ACK [52@0] {getfingerprint} Decoding failed")
        #expect(try client.command("getfingerprint Music/../../etc/passwd").ack?.hasPrefix("ACK [52@0] {getfingerprint} Failed to open") == true)
        #expect(try client.command("getfingerprint").ack == "ACK [2@0] {getfingerprint} wrong number of arguments for \"getfingerprint\"")
        // The daemon still answers, and the good song still gives its fingerprint.
        #expect(try client.command("getfingerprint Music/mono.wav").fields.first?.value == Self.fpcalc(music.appendingPathComponent("mono.wav").path))
    }
}
