import Foundation
import Library
import LibraryKit
import Logging
import PlayerCore
import PlayerKit
import Testing

/// The player's loudness store in a real library, and the levelling setting kept between runs.
@Suite("Loudness kept in the library")
struct LibraryLoudnessStoreTests {
    @Test func aFileIsKnownUntilItChanges() throws {
        let (store, dir) = try ListeningSettingsTests.store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let loudness = LibraryLoudnessStore(store: store, logger: Logger(label: "test"))
        let file = dir.appendingPathComponent("a.flac")
        try Data(repeating: 1, count: 100).write(to: file)
        let track = Track(id: "1", url: file, kind: .file)
        let measured = Loudness(integrated: -19, source: .measured)!
        loudness.keep(measured, of: track)
        #expect(loudness.loudness(of: Track(id: "another id", url: file, kind: .file)) == measured, "keyed by the file, not the queue entry")
        // Edited: another size, another modification time.
        try Data(repeating: 2, count: 200).write(to: file)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: file.path)
        #expect(loudness.loudness(of: track) == nil, "a changed file is measured again")
    }

    @Test func anEpisodeIsKeyedByItsURLAndAStreamIsNeverKept() throws {
        let (store, dir) = try ListeningSettingsTests.store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let loudness = LibraryLoudnessStore(store: store, logger: Logger(label: "test"))
        let episode = Track(id: "e", url: URL(string: "https://cdn.example/ep.mp3")!, kind: .episode)
        let heard = Loudness(integrated: -17, source: .heard)!
        loudness.keep(heard, of: episode)
        #expect(loudness.loudness(of: episode) == heard)
        let live = Track(id: "s", url: URL(string: "https://radio.example/live")!, kind: .liveStream)
        loudness.keep(heard, of: live)
        #expect(loudness.loudness(of: live) == nil)
    }

    @Test func theLevellingSetIsKeptButNotTheOneAnnounced() throws {
        let (store, dir) = try ListeningSettingsTests.store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let settings = ListeningSettings(store: store, logger: Logger(label: "test"))
        settings.observe(.loudness(LoudnessLevelling(mode: .track), trackGain: nil, audioTime: 0))
        #expect(ListeningSettings.savedLoudness(in: store) == nil, "what a run starts with is not kept")
        settings.observe(.loudness(LoudnessLevelling(mode: .session, target: -18), trackGain: 2, audioTime: 1))
        #expect(ListeningSettings.savedLoudness(in: store) == LoudnessLevelling(mode: .session, target: -18))
        settings.observe(.loudness(.off, trackGain: nil, audioTime: 2))
        #expect(ListeningSettings.savedLoudness(in: store) == LoudnessLevelling(mode: .off, target: -16))
    }
}
