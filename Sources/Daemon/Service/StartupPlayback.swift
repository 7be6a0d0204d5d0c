import Foundation
import LibraryKit
import Logging
import PlayerCore
import PlayerKit
import Synchronization

/// Plays one thing when the daemon starts (`tonearm serve --episode ID`, or sources): a radio that
/// comes on with the machine. An episode resumes where it was stopped and its place is kept while
/// it plays and when the daemon stops (by the library's observers, which it names it to).
package final class StartupPlayback: DaemonService {
    package enum Item: Sendable, Equatable {
        case episode(Int64)
        case request(PlayRequest)
    }

    package let item: Item
    private let places = Mutex<(places: EpisodePlaces, logger: Logger)?>(nil)

    package init(_ item: Item) {
        self.item = item
    }

    package var name: String { "startup" }

    package func start(_ context: DaemonContext) async throws(PlaybackError) -> [DaemonEndpoint] {
        let replacement: PlayerEvent.Replacement
        switch item {
        case .episode(let id):
            replacement = try context.library.episodeToPlay(id: id)
            context.assembly.observers.places.follow(replacement, episode: id)
            places.withLock { $0 = (context.assembly.observers.places, context.logger) }
        case .request(let request):
            replacement = .play(request)
        }
        try await context.assembly.replace(with: replacement, on: context.player)
        return []
    }

    package func observe(_ update: PlayerUpdate) {}

    package func stop() async {
        guard let (places, logger) = places.withLock({ $0 }), let error = places.firstError else { return }
        logger.warning("episode place not saved", metadata: ["code": "\(error.code.rawValue)", "errorType": "\(error.errorType)"])
    }
}
