import AudioEngine
import Foundation
import Library
import Logging
import PlayerCore
import Synchronization

/// The speed kept in the library: a default, and an override per podcast (a listener hears one
/// show at 1.5x and another at 1x). A change the listener makes while an episode plays is kept for
/// its podcast; any other change becomes the default. The speed a player announces when it starts
/// is not written back, so a `--speed` for one run is not kept.
public final class SpeedSetting: Sendable {
    public static let defaultKey = "player.speed"

    public static func podcastKey(_ podcastID: Int64) -> String { "podcast.\(podcastID).speed" }

    private struct Context {
        /// The podcast of the episode playing now, if one is.
        var podcast: Int64?
        var started = false
    }

    private let store: LibraryStore
    private let logger: Logger
    private let context: Mutex<Context>

    public init(store: LibraryStore, podcast: Int64? = nil, logger: Logger) {
        self.store = store
        self.logger = logger
        context = Mutex(Context(podcast: podcast))
    }

    /// The speed to start at: the podcast's own when it has one, else the default.
    public static func saved(in store: LibraryStore, podcast: Int64?) -> PlaybackSpeed? {
        func read(_ key: String) -> PlaybackSpeed? { (try? store.setting(key)).flatMap { $0 }.flatMap(PlaybackSpeed.parse) }
        return podcast.flatMap { read(podcastKey($0)) } ?? read(defaultKey)
    }

    /// What plays now belongs to `podcast` (nil: not an episode of the library).
    public func use(podcast: Int64?) {
        context.withLock { $0.podcast = podcast }
    }

    /// Sees every update; writes the speed when the listener changed it.
    public func observe(_ update: PlayerUpdate) {
        guard case .speed(let speed, _) = update else { return }
        let (isStart, podcast) = context.withLock { context in
            defer { context.started = true }
            return (!context.started, context.podcast)
        }
        // The start, or a speed that is already what applies here (an episode set to its podcast's).
        guard !isStart, Self.saved(in: store, podcast: podcast) ?? .normal != speed else { return }
        do throws(PlaybackError) {
            try store.setSetting(podcast.map(Self.podcastKey) ?? Self.defaultKey, String(speed.rate))
        } catch {
            logger.warning("speed not kept", metadata: LogFields.error(error).mapValues { .string($0) })
        }
    }
}
