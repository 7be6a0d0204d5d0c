import Foundation
import Library
import Logging
import PlayerCore
import PlayerKit
import Synchronization

/// The volume, speed and loudness levelling a listener sets, kept in the library so the next run
/// starts there. The volume and the levelling are one value each; the speed has a default and an override per podcast (one show at 1.5x,
/// another at 1x): set while an episode plays, it is kept for its podcast.
///
/// What a player announces when it starts is never written back (a `--volume` or `--speed` given
/// for one run is not kept), nor is a value that already applies (an episode set to its podcast's
/// speed does not give the podcast an override equal to the default).
package final class ListeningSettings: Sendable {
    package static let volumeKey = "player.volume"
    package static let speedKey = "player.speed"
    package static let loudnessKey = "player.loudness"
    package static let loudnessTargetKey = "player.loudnessTarget"

    package static func podcastSpeedKey(_ podcastID: Int64) -> String { "podcast.\(podcastID).speed" }

    private struct Seen {
        /// The podcast of the episode playing now, if one is.
        var podcast: Int64?
        var volumeAnnounced = false
        var speedAnnounced = false
        var loudnessAnnounced = false
    }

    private let store: LibraryStore
    private let logger: Logger
    private let seen: Mutex<Seen>

    package init(store: LibraryStore, podcast: Int64? = nil, logger: Logger) {
        self.store = store
        self.logger = logger
        seen = Mutex(Seen(podcast: podcast))
    }

    /// Which of the kept settings a run names itself (`--volume`, `--speed`, `--loudness`), so
    /// the kept ones do not replace them.
    package struct Named: OptionSet, Sendable {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }
        package static let volume = Named(rawValue: 1 << 0)
        package static let speed = Named(rawValue: 1 << 1)
        package static let loudness = Named(rawValue: 1 << 2)
    }

    /// The one place a run starts from the listener's kept volume, speed (the podcast's own, if
    /// it has one) and levelling: each replaces the configuration's value unless the run names it.
    package static func applySaved(
        in store: LibraryStore, podcast: Int64?, to configuration: inout PlayerStateMachine.Configuration, except named: Named = []
    ) {
        if !named.contains(.volume), let saved = savedVolume(in: store) { configuration.volume = saved }
        if !named.contains(.speed), let saved = savedSpeed(in: store, podcast: podcast) { configuration.speed = saved }
        if !named.contains(.loudness), let saved = savedLoudness(in: store) { configuration.loudness = saved }
    }

    /// The kept volume, if there is a readable one.
    package static func savedVolume(in store: LibraryStore) -> Volume? {
        read(volumeKey, in: store).flatMap(Volume.parse)
    }

    /// The speed to start at: the podcast's own when it has one, else the default.
    package static func savedSpeed(in store: LibraryStore, podcast: Int64?) -> PlaybackSpeed? {
        podcast.flatMap { read(podcastSpeedKey($0), in: store).flatMap(PlaybackSpeed.parse) }
            ?? read(speedKey, in: store).flatMap(PlaybackSpeed.parse)
    }

    /// The kept loudness levelling, if one was set.
    package static func savedLoudness(in store: LibraryStore) -> LoudnessLevelling? {
        guard let mode = read(loudnessKey, in: store).flatMap(LoudnessMode.parse) else { return nil }
        let target = read(loudnessTargetKey, in: store).flatMap(Double.init) ?? LoudnessLevelling.defaultTarget
        return LoudnessLevelling(mode: mode, target: target)
    }

    /// What plays now belongs to `podcast` (nil: not an episode of the library).
    package func use(podcast: Int64?) {
        seen.withLock { $0.podcast = podcast }
    }

    /// Sees every update; writes what the listener changed.
    package func observe(_ update: PlayerUpdate) {
        switch update {
        case .volume(let volume, _):
            let first = seen.withLock { seen in
                defer { seen.volumeAnnounced = true }
                return !seen.volumeAnnounced
            }
            guard !first, Self.savedVolume(in: store) ?? .full != volume else { return }
            write(Self.volumeKey, String(volume.level))
        case .speed(let speed, _):
            let (first, podcast) = seen.withLock { seen in
                defer { seen.speedAnnounced = true }
                return (!seen.speedAnnounced, seen.podcast)
            }
            guard !first, Self.savedSpeed(in: store, podcast: podcast) ?? .normal != speed else { return }
            write(podcast.map(Self.podcastSpeedKey) ?? Self.speedKey, String(speed.rate))
        case .loudness(let levelling, _, _):
            let first = seen.withLock { seen in
                defer { seen.loudnessAnnounced = true }
                return !seen.loudnessAnnounced
            }
            guard !first, Self.savedLoudness(in: store) ?? .off != levelling else { return }
            write(Self.loudnessKey, levelling.mode.rawValue)
            write(Self.loudnessTargetKey, String(levelling.target))
        default:
            return
        }
    }

    private static func read(_ key: String, in store: LibraryStore) -> String? {
        (try? store.setting(key)).flatMap { $0 }
    }

    private func write(_ key: String, _ value: String) {
        do throws(PlaybackError) {
            try store.setSetting(key, value)
        } catch {
            logger.warning("listening setting not kept", metadata: LogFields.error(error).mapValues { .string($0) })
        }
    }
}
