import Foundation
import TestProcesses
import Testing

/// The same session, command by command, against a real mpd and against `tonearm serve` on the
/// same music: every field mpd answers with, Tonearm answers with too, except the few listed
/// here with the reason Tonearm cannot honestly give them. Both answers are recorded in the
/// test's output so a difference can be read.
@Suite("tonearm serve compared with mpd", .serialized, .blocking)
struct MPDComparisonTests {
    /// Fields mpd gives that Tonearm does not, and why.
    static let knownDifferences: [String: String] = [
        "bitrate": "mpd reports the decoder's bitrate; Tonearm's decoders do not report one while playing",
        "Added": "mpd's database keeps when a file was added; Tonearm reads no database",
    ]

    /// The session, as `(command, what to wait for before asking)`; `%` is a song's path on the
    /// server under test.
    static let session: [(String, String?)] = [
        ("add \"%first.flac\"", nil), ("add \"%second.flac\"", nil), ("status", nil), ("playlistinfo", nil),
        ("play 0", "play"), ("status", nil), ("currentsong", nil), ("setvol 40", nil), ("status", nil),
        ("pause 1", "pause"), ("status", nil), ("outputs", nil), ("stats", nil), ("replay_gain_status", nil),
        ("plchanges 0", nil), ("plchangesposid 0", nil), ("playlistid 1", nil), ("stop", "stop"), ("status", nil),
    ]

    static func record(_ client: MPDLineClient, prefix: String) throws -> [(command: String, keys: Set<String>, ack: String?)] {
        var answers: [(String, Set<String>, String?)] = []
        for (command, state) in session {
            let line = command.replacingOccurrences(of: "%", with: prefix)
            let answer = try client.command(line)
            answers.append((command, Set(answer.fields.map(\.key)), answer.ack))
            if let state {
                _ = eventuallyBlocking(timeout: 15) { (try? client.status()["state"]) == state }
            }
        }
        return answers
    }

    @Test func everyFieldMPDAnswersTonearmAnswersToo() throws {
        let tones = try MPDClientTests.music()
        defer { try? FileManager.default.removeItem(at: tones) }
        // Both servers play the same files: mpd's music directory, which Tonearm is given too.
        let mpd = try MPDDaemonProcess { music in
            try FileManager.default.copyItem(at: tones.appendingPathComponent("Album"), to: URL(fileURLWithPath: music).appendingPathComponent("Album"))
        }
        defer { mpd.stop() }
        let real = try mpd.updatedClient()
        try #require((try real.command("listall").fields.filter { $0.key == "file" }.count) == 3)
        let daemon = try ServeDaemon(music: URL(fileURLWithPath: mpd.musicDirectory))

        let theirs = try Self.record(real, prefix: "Album/")
        let ours = try Self.record(try daemon.client(), prefix: "Music/Album/")
        for (mine, real) in zip(ours, theirs) {
            print("mpd     \(real.command): \(real.keys.sorted()) \(real.ack ?? "")")
            print("tonearm \(mine.command): \(mine.keys.sorted()) \(mine.ack ?? "")")
            #expect((mine.ack == nil) == (real.ack == nil), "\(mine.command): mpd \(real.ack ?? "OK"), tonearm \(mine.ack ?? "OK")")
            let missing = real.keys.subtracting(mine.keys).subtracting(Self.knownDifferences.keys)
            #expect(missing.isEmpty, "\(mine.command): tonearm lacks \(missing.sorted())")
            // What Tonearm adds beyond mpd is its own, and says so in its name.
            let extra = mine.keys.subtracting(real.keys).filter { !$0.hasPrefix("tonearm_") }
            #expect(extra.isSubset(of: ["duration", "Time", "Title", "elapsed", "time", "audio", "nextsong", "nextsongid", "xfade"]), "\(mine.command): \(extra.sorted())")
        }
    }
}
