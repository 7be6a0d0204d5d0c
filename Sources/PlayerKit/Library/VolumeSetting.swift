import AudioEngine
import Foundation
import Library
import Logging
import PlayerCore
import Synchronization

/// The listener's volume kept in the library, so the next run starts where this one was left.
/// Only a change the listener makes is kept: the volume a player announces when it starts (the
/// saved one, or a `--volume` given for one run) is not written back.
public final class VolumeSetting: Sendable {
    public static let key = "player.volume"

    private let store: LibraryStore
    private let logger: Logger
    /// The volume the player started with, once it has said it.
    private let started = Mutex<Volume?>(nil)

    public init(store: LibraryStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// The kept volume, if there is a readable one.
    public static func saved(in store: LibraryStore) -> Volume? {
        (try? store.setting(key)).flatMap { $0 }.flatMap(Volume.parse)
    }

    /// Sees every update; writes the volume when the listener changed it.
    public func observe(_ update: PlayerUpdate) {
        guard case .volume(let volume, _) = update else { return }
        let isStart = started.withLock { started in
            defer { started = started ?? volume }
            return started == nil
        }
        guard !isStart else { return }
        do throws(PlaybackError) {
            try store.setSetting(Self.key, String(volume.level))
        } catch {
            logger.warning("volume not kept", metadata: LogFields.error(error).mapValues { .string($0) })
        }
    }
}
