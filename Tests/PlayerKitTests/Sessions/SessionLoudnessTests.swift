import Foundation
import PlayerCore
import PlayerKit
import Synchronization
import TestProcesses
import Testing

/// Before a session plays levelled as a whole, every stage's loudness and the session's are known.
@Suite("Session loudness", .blocking)
struct SessionLoudnessTests {
    final class Store: LoudnessStore {
        let entries = Mutex<[String: Loudness]>([:])
        func loudness(of track: Track) -> Loudness? { entries.withLock { $0[track.url.lastPathComponent] } }
        func keep(_ loudness: Loudness, of track: Track) { entries.withLock { $0[track.url.lastPathComponent] = loudness } }
    }

    private func noise(_ fixtures: AudioFixtures, volume: Double, name: String) throws -> URL {
        let file = fixtures.url(name)
        try fixtures.ffmpeg([
            "-f", "lavfi", "-i", "anoisesrc=d=4:c=pink:r=48000:a=0.5", "-ac", "2", "-af", "volume=\(volume)dB", file.path,
        ])
        return file
    }

    @Test func everyStageGetsItsOwnLoudnessAndTheSessions() throws {
        let fixtures = try AudioFixtures()
        let quiet = try noise(fixtures, volume: -12, name: "quiet.flac")
        let loud = try noise(fixtures, volume: 0, name: "loud.flac")
        let store = Store()
        // One stage is known already: kept, it is not measured again.
        let kept = Loudness(integrated: -20, source: .measured)!
        store.entries.withLock { $0["loud.flac"] = kept }
        let request = try #require(PlayRequest(items: [
            QueueItem(track: Track(id: "1", url: quiet, kind: .file, duration: 4)),
            QueueItem(track: Track(id: "2", url: loud, kind: .file, duration: 4), crossfadeIntoNext: CrossfadeSpec(duration: 1)),
        ]))
        let prepared = SessionLoudness.prepare(request, store: store)
        let quietLoudness = try #require(prepared.items[0].track.loudness)
        #expect(abs(quietLoudness.integrated - (try FFmpegLoudness.measure(quiet).integrated)) <= 0.2)
        #expect(store.loudness(of: prepared.items[0].track) == quietLoudness, "the measurement is kept")
        #expect(prepared.items[1].track.loudness == kept)
        let session = Loudness.combined([(quietLoudness, 4), (kept, 4)])
        #expect(prepared.items.allSatisfy { $0.track.sessionLoudness == session })
        #expect(prepared.items[1].crossfadeIntoNext == CrossfadeSpec(duration: 1), "the rest of the queue is as it was")
    }

    @Test func aStageThatCannotBeMeasuredLeavesTheSessionUnknown() throws {
        let fixtures = try AudioFixtures()
        let file = try noise(fixtures, volume: -6, name: "a.flac")
        let request = try #require(PlayRequest(items: [
            QueueItem(track: Track(id: "1", url: file, kind: .file)),
            QueueItem(track: Track(id: "2", url: URL(string: "https://radio.example/live")!, kind: .liveStream)),
        ]))
        let prepared = SessionLoudness.prepare(request, store: nil)
        #expect(prepared.items[0].track.loudness != nil)
        #expect(prepared.items.allSatisfy { $0.track.sessionLoudness == nil })
    }
}
