import AudioEngine
import Foundation
import PlayerCore
import PlayerKit
import TestProcesses
import Testing

/// A song's lyrics reach the front ends through the composed player and are followed by the
/// transcript follower: the `.lrc` beside the file before the file's own lyrics, each line current
/// from the moment the media position passes its stamp, at twice the speed as at normal speed, and
/// after a seek.
@Suite("Lyrics while playing", .serialized, .blocking)
struct LyricsFollowTests {
    static let stamps: [Double] = [2, 4, 6, 8, 10]

    static func cues(_ updates: [PlayerUpdate]) -> [(index: Int?, at: Int)] {
        updates.enumerated().compactMap { offset, update in
            if case .notice(.cue(let position), _) = update { (position?.index, offset) } else { nil }
        }
    }

    /// The position published right after the update at `offset` (a cue is told just before the
    /// position it changed at) and the last one before it.
    static func positions(around offset: Int, in updates: [PlayerUpdate]) -> (before: Double?, after: Double?) {
        func seconds(_ update: PlayerUpdate) -> Double? { if case .position(let s, _, _) = update { s } else { nil } }
        return (updates[..<offset].reversed().lazy.compactMap(seconds).first, updates[(offset + 1)...].lazy.compactMap(seconds).first)
    }

    @Test func theLrcBesideTheSongIsFollowedLineByLineAtTwiceTheSpeedAndAfterASeek() async throws {
        let fixtures = try AudioFixtures()
        let plain = try fixtures.sine(.flac, sampleRate: 48_000, seconds: 40, frequency: 440, name: "plain.flac")
        // The file's own lyrics say otherwise: the .lrc beside it wins.
        let song = fixtures.url("song.flac")
        try fixtures.ffmpeg(["-i", plain.path, "-metadata", "lyrics=[00:01.00]Embedded words", "-c", "copy", song.path])
        let lrc = Self.stamps.enumerated().map { n, stamp in String(format: "[00:%05.2f]Line %d", stamp, n + 1) }
        _ = try fixtures.write("song.lrc", Data(("[ti:Tone]\r\n" + lrc.joined(separator: "\r\n") + "\r\n").utf8))

        let radio = try await RadioHarness(configuration: PlayerStateMachine.Configuration(speed: PlaybackSpeed(2)))
        try await radio.player.play(PlayRequest(track: Track(id: "song", url: song, kind: .file, title: "Tone")))
        #expect(await radio.waitUntil("the last line", timeout: 40) { Self.cues(radio.updates).contains { $0.index == 4 } })

        let updates = radio.updates
        let told: [Transcript] = updates.compactMap { if case .notice(.transcript(let t?), _) = $0 { t } else { nil } }
        let lyrics = try #require(told.first)
        #expect(lyrics.lyrics?.origin == .lrcFile)
        #expect(lyrics.lyrics?.title == "Tone")
        #expect(lyrics.cues.map(\.text) == ["Line 1", "Line 2", "Line 3", "Line 4", "Line 5"])

        let lines = Self.cues(updates).filter { $0.index != nil }
        #expect(lines.map(\.index) == [0, 1, 2, 3, 4], "each line once, in order")
        var audioTimes: [Double] = []
        for cue in lines {
            let index = try #require(cue.index)
            let (before, after) = Self.positions(around: cue.at, in: updates)
            let next = index + 1 < Self.stamps.count ? Self.stamps[index + 1] : .infinity
            // Current from the position that passed its stamp: not before, not a line late.
            #expect((after ?? -1) >= Self.stamps[index] && (after ?? .infinity) < next, "line \(index + 1) told at \(String(describing: after))")
            #expect((before ?? 0) < Self.stamps[index], "line \(index + 1) told late: position \(String(describing: before)) had passed it")
            audioTimes.append(updates[cue.at].audioTime)
        }
        // At 2x, 8 s of song (line 1 to line 5) pass in 4 s of output.
        let heard = (audioTimes.last ?? 0) - (audioTimes.first ?? 0)
        #expect(abs(heard - 4) < 0.5, "lines 1 to 5 were \(heard) s apart in the output")

        // A seek back into line 2: it is current again.
        let mark = updates.count
        try await radio.player.seek(to: 4.5)
        #expect(await radio.waitUntil("line 2 after the seek", timeout: 20) { Self.cues(Array(radio.updates.dropFirst(mark))).contains { $0.index == 1 } })
        await radio.shutdown()
    }
}
