import Foundation
import LibraryKit
import Logging
import PlayerCore
import PlayerKit
import Synchronization

/// Plays one thing when the daemon starts (`tonearm serve --episode ID`, or sources): a radio that
/// comes on with the machine. An episode resumes where it was stopped and its place is kept while
/// it plays and when the daemon stops.
package final class StartupPlayback: DaemonService {
    package enum Item: Sendable, Equatable {
        case episode(Int64)
        case request(PlayRequest)
    }

    package let item: Item
    private let recorder = Mutex<(recorder: EpisodeProgressRecorder, logger: Logger)?>(nil)

    package init(_ item: Item) {
        self.item = item
    }

    package var name: String { "startup" }

    package func start(_ context: DaemonContext) async throws(PlaybackError) -> [DaemonEndpoint] {
        let replacement: PlayerEvent.Replacement
        switch item {
        case .episode(let id):
            replacement = try context.library.episodeToPlay(id: id)
            let made = EpisodeProgressRecorder(store: context.library.store, episodeID: id)
            recorder.withLock { $0 = (made, context.logger) }
        case .request(let request):
            replacement = .play(request)
        }
        try await context.player.send(.replace(replacement))
        return []
    }

    package func observe(_ update: PlayerUpdate) {
        recorder.withLock { $0 }?.recorder.observe(update)
    }

    package func stop() async {
        guard let (recorder, logger) = recorder.withLock({ $0 }), let error = recorder.firstError else { return }
        logger.warning("episode place not saved", metadata: ["code": "\(error.code.rawValue)", "errorType": "\(error.errorType)"])
    }
}
