import Foundation
import PlayerCore
import PlayerKit

extension LibraryController {
    /// Keeps an episode on disk in the background; its progress and its end come back as events.
    func download(episode: Int64) {
        Task { [library] in
            let outcomes = await library.downloads.download([episode]) { event in
                switch event {
                case .progress: self.dispatch(.downloadProgressed(episode: episode, at: Date()))
                case .started, .removed: self.dispatch(.episodesChanged)
                case .finished, .failed: break
                }
            }
            let failure: PlaybackError? = if case .failure(let error)? = outcomes.first?.result { error } else { nil }
            self.dispatch(.downloadFinished(episode: episode, failure: failure))
        }
    }
}
