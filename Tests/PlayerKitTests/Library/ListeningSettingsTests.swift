import Foundation
import Library
import LibraryKit
import Logging
import PlayerCore
import PlayerKit
import Testing

/// The speed kept in a real library: a default, and an override per podcast.
@Suite("Volume and speed kept in the library")
struct ListeningSettingsTests {
    static func store() throws -> (LibraryStore, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-speed-\(UUID().uuidString)")
        return (try LibraryStore.open(directory: dir), dir)
    }

    @Test func aChangeDuringAnEpisodeIsKeptForItsPodcastOnly() throws {
        let (store, dir) = try Self.store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let setting = ListeningSettings(store: store, podcast: 7, logger: Logger(label: "test"))
        setting.observe(.speed(PlaybackSpeed(1.25), audioTime: 0))
        #expect(ListeningSettings.savedSpeed(in: store, podcast: 7) == nil, "the speed announced at the start is not kept")
        setting.observe(.speed(PlaybackSpeed(1.5), audioTime: 1))
        #expect(ListeningSettings.savedSpeed(in: store, podcast: 7) == PlaybackSpeed(1.5))
        #expect(ListeningSettings.savedSpeed(in: store, podcast: 8) == nil)
        #expect(ListeningSettings.savedSpeed(in: store, podcast: nil) == nil)

        setting.use(podcast: nil)
        setting.observe(.speed(PlaybackSpeed(1.1), audioTime: 2))
        #expect(ListeningSettings.savedSpeed(in: store, podcast: nil) == PlaybackSpeed(1.1))
        #expect(ListeningSettings.savedSpeed(in: store, podcast: 8) == PlaybackSpeed(1.1), "a podcast without its own speed takes the default")
        #expect(ListeningSettings.savedSpeed(in: store, podcast: 7) == PlaybackSpeed(1.5), "one with its own keeps it")
    }

    /// Setting an episode to its podcast's speed when it starts writes nothing: the podcast does
    /// not get an override equal to the default, which would hide later changes of the default.
    @Test func theSpeedThatAlreadyAppliesIsNotWrittenAgain() throws {
        let (store, dir) = try Self.store()
        defer { try? FileManager.default.removeItem(at: dir) }
        try store.setSetting(ListeningSettings.speedKey, "1.3")
        let setting = ListeningSettings(store: store, podcast: 3, logger: Logger(label: "test"))
        setting.observe(.speed(.normal, audioTime: 0))
        setting.observe(.speed(PlaybackSpeed(1.3), audioTime: 1))
        #expect(try store.setting(ListeningSettings.podcastSpeedKey(3)) == nil)
    }

    /// The volume: the start's announcement is not kept (a `--volume` for one run), a change is.
    @Test func aVolumeChangeIsKeptButNotTheOneAnnouncedAtTheStart() throws {
        let (store, dir) = try Self.store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let setting = ListeningSettings(store: store, logger: Logger(label: "test"))
        setting.observe(.volume(Volume(0.2), audioTime: 0))
        #expect(ListeningSettings.savedVolume(in: store) == nil)
        setting.observe(.volume(Volume(0.6), audioTime: 1))
        #expect(ListeningSettings.savedVolume(in: store) == Volume(0.6))
    }

    /// A run starts from what was kept (the podcast's own speed over the default), except what
    /// the run names itself; what was never kept leaves the configuration as it was.
    @Test func aRunStartsFromTheKeptSettingsExceptThoseItNames() throws {
        let (store, dir) = try Self.store()
        defer { try? FileManager.default.removeItem(at: dir) }
        try store.setSetting(ListeningSettings.volumeKey, "0.4")
        try store.setSetting(ListeningSettings.speedKey, "1.2")
        try store.setSetting(ListeningSettings.podcastSpeedKey(5), "1.6")

        var kept = PlayerStateMachine.Configuration()
        ListeningSettings.applySaved(in: store, podcast: 5, to: &kept)
        #expect(kept.volume == Volume(0.4))
        #expect(kept.speed == PlaybackSpeed(1.6))
        #expect(kept.loudness == .off, "no levelling was kept")

        var named = PlayerStateMachine.Configuration(volume: Volume(0.9), speed: PlaybackSpeed(0.8))
        ListeningSettings.applySaved(in: store, podcast: nil, to: &named, except: [.volume])
        #expect(named.volume == Volume(0.9), "--volume wins over the kept volume")
        #expect(named.speed == PlaybackSpeed(1.2), "no podcast: the default speed")
    }
}
