import Foundation
import TestProcesses
import Testing

/// ReplayGain's album mode for an album without album gain tags: the album is levelled as a whole
/// by the loudness the library measured of each of its songs, so a quiet song stays as much
/// quieter than a loud one as it was mastered; track mode levels each song on its own.
@Suite("MPD replay_gain_mode album from measured songs", .serialized, .blocking)
struct MPDAlbumGainTests {
    /// Two songs of one album 10 dB apart (pink noise, no gain tags) and a song of another album.
    static func makeAlbum(in directory: URL) throws {
        let album = directory.appendingPathComponent("Tide")
        try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
        for (name, volume, title) in [("01 Loud.flac", "0.5", "Loud"), ("02 Quiet.flac", "0.158", "Quiet")] {
            try ffmpeg([
                "-f", "lavfi", "-i", "anoisesrc=d=20:c=pink:seed=3", "-af", "volume=\(volume)", "-ar", "44100", "-ac", "2",
                "-metadata", "title=\(title)", "-metadata", "album=Tide", "-metadata", "artist=Aurora Trio",
                album.appendingPathComponent(name).path,
            ])
        }
        try ffmpeg([
            "-f", "lavfi", "-i", "anoisesrc=d=20:c=pink:seed=5", "-af", "volume=0.1", "-ar", "44100", "-ac", "2",
            "-metadata", "title=Elsewhere", "-metadata", "album=Other", "-metadata", "artist=Aurora Trio",
            directory.appendingPathComponent("elsewhere.flac").path,
        ])
    }

    static func ffmpeg(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-nostdin", "-loglevel", "error", "-y"] + arguments
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "ffmpeg \(arguments)")
    }

    /// The loudness `tonearm loudness` measured and kept for each file, LUFS.
    static func measure(_ files: [URL], dataHome: URL) throws -> [Double] {
        let run = try CLITests.run(["loudness", "--json"] + files.map(\.path), dataHome: dataHome)
        #expect(run.status == 0, "stderr: \(run.err)")
        let lines = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [[String: Any]])
        return try lines.map { try #require($0["lufs"] as? Double) }
    }

    /// Each step's gain differs from the one before it, so a value read before the player's
    /// news of the new one arrived cannot pass.
    @Test func anAlbumWithoutGainTagsIsLevelledByItsMeasuredSongs() throws {
        let music = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-albumgain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: music) }
        try Self.makeAlbum(in: music)
        let daemon = try ServeDaemon(music: music)
        let client = try daemon.client()
        let data = daemon.home.appendingPathComponent("data")
        let tide = music.appendingPathComponent("Tide")
        let target = -16.0
        // Levelling boosts by 20 dB at most.
        func boost(_ loudness: Double) -> Double { min(20, target - loudness) }

        /// Waits until the song at `position` plays with `expected` dB of gain.
        func expectGain(_ expected: Double, song position: Int, _ what: String) {
            var last = "none"
            let reached = eventuallyBlocking(timeout: 15) {
                guard (try? client.status()["song"]) == String(position),
                    let value = try? client.command("replay_gain_status").fields.first(where: { $0.key == "tonearm_gain" })?.value
                else { return false }
                last = value
                return Double(value).map { abs($0 - expected) < 0.05 } ?? false
            }
            #expect(reached, "\(what): song \(position) has gain \(last), expected \(expected)\n\(daemon.logTail)")
        }

        #expect(try client.command("add Music/Tide").ack == nil)
        #expect(try client.command("add Music/elsewhere.flac").ack == nil)
        let loud = try #require(try Self.measure([tide.appendingPathComponent("01 Loud.flac")], dataHome: data).first)
        let elsewhere = try #require(try Self.measure([music.appendingPathComponent("elsewhere.flac")], dataHome: data).first)

        // The album's quiet song is not measured yet: album mode levels the loud one by its own.
        #expect(try client.command("replay_gain_mode album").ack == nil)
        #expect(try client.command("play 0").ack == nil)
        expectGain(target - loud, song: 0, "an album not measured through")

        let quiet = try #require(try Self.measure([tide.appendingPathComponent("02 Quiet.flac")], dataHome: data).first)
        #expect(loud - quiet > 8, "the songs are 10 dB apart: \(loud), \(quiet)")
        // Equal lengths: the album's loudness is the mean of its songs' energies.
        let album = 10 * log10((pow(10, loud / 10) + pow(10, quiet / 10)) / 2)

        #expect(try client.command("replay_gain_mode track").ack == nil)
        #expect(try client.command("play 1").ack == nil)
        expectGain(target - quiet, song: 1, "track mode")
        #expect(try client.command("replay_gain_mode album").ack == nil)
        expectGain(target - album, song: 1, "album mode, the quiet song")
        #expect(try client.command("play 2").ack == nil)
        expectGain(boost(elsewhere), song: 2, "a one-song album is its song")
        #expect(try client.command("play 0").ack == nil)
        expectGain(target - album, song: 0, "album mode, the loud song")
        #expect(try client.command("replay_gain_mode track").ack == nil)
        expectGain(target - loud, song: 0, "track mode again")
    }
}
