import Foundation
import PlayerCore
import TestProcesses
import Testing

/// `tonearm play sheet.cue`: a cue sheet named on the command line plays as its tracks, each from
/// its part of the image to the sample, told by the sheet's titles; a sheet that cannot be read
/// is a typed failure, never "unsupported format" and never a file outside the sheet's folder.
@Suite("tonearm play of a cue sheet", .serialized, .blocking)
struct CueSheetPlayCommandTests {
    /// The left channel `tonearm play` rendered of `sources`, and its events.
    static func rendered(_ sources: [String]) throws -> (frames: [Float], events: [[String: Any]], err: String, status: Int32) {
        let wav = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-cueplay-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        let r = try PlaybackCommandTests.run(["play"] + sources + ["--output", "wav-float:\(wav.path)", "--fast", "--events", "jsonl"])
        let frames = (try? Data(contentsOf: wav)).flatMap { try? MPDCueComparisonTests.leftChannel(ofFloatWAV: $0) } ?? []
        return (frames, r.events, r.err, r.status)
    }

    @Test func aSheetPlaysItsTracksInOrderToTheSample() throws {
        let music = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-cueplay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: music) }
        try MPDCueComparisonTests.makeMusic(in: music)
        let image = try Self.rendered([music.appendingPathComponent("Album/image.flac").path])
        let sheet = try Self.rendered([music.appendingPathComponent("Album/image.cue").path])
        #expect(sheet.status == 0, "stderr: \(sheet.err)")

        // Each track is announced by the sheet's title and album, with its own length.
        let started = sheet.events.filter { $0["state"] as? String == "playing" }.compactMap { $0["track"] as? [String: Any] }
        var titles: [String] = []
        for track in started where titles.last != track["title"] as? String { titles.append(track["title"] as? String ?? "?") }
        #expect(titles == ["Low", "Middle", "High"], "\(started)")
        #expect(started.allSatisfy { $0["album"] as? String == "Three Tones" }, "\(started)")
        #expect(started.first { $0["title"] as? String == "Middle" }?["artist"] as? String == "Guest")

        // Played through, the tracks are the image: as many frames, no seam skips or repeats.
        #expect(image.frames.count > 7 * 48_000, "the image: \(image.frames.count) frames, stderr: \(image.err)")
        #expect(sheet.frames.count == image.frames.count, "the sheet: \(sheet.frames.count) frames, the image: \(image.frames.count)")
        let steps = zip(sheet.frames.dropFirst(), sheet.frames).map { abs($0 - $1) }
        #expect((steps.max() ?? 1) < 0.05, "a seam jumps by \(steps.max() ?? 1)")
    }

    /// A sheet whose `FILE` climbs out of its folder, one without an audio track, and one naming a
    /// missing image each end in their typed error, with nothing played.
    @Test(arguments: [
        ("FILE \"../image.flac\" WAVE\n  TRACK 01 AUDIO\n    INDEX 01 00:00:00\n", "Resource.malformedData"),
        ("TITLE \"Nothing\"\n", "Resource.malformedData"),
        ("FILE \"gone.flac\" WAVE\n  TRACK 01 AUDIO\n    INDEX 01 00:00:00\n", "Resource.fileNotFound"),
    ])
    func aSheetThatCannotBeReadIsATypedFailure(sheet text: String, type: String) throws {
        let music = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-cueplay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: music.appendingPathComponent("Album"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: music) }
        try MPDCueComparisonTests.makeMusic(in: music)
        let sheet = music.appendingPathComponent("Album/bad.cue")
        try Data(text.utf8).write(to: sheet)
        let r = try Self.rendered([sheet.path])
        #expect(r.status == 1, "stderr: \(r.err)")
        let failed = r.events.last { $0["state"] as? String == "failed" }
        #expect((failed?["error"] as? [String: Any])?["type"] as? String == type, "\(r.events)")
        #expect(r.frames.allSatisfy { $0 == 0 }, "nothing played: \(r.frames.count) frames")
    }
}
