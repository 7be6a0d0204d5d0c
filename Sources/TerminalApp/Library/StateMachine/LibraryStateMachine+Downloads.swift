import Foundation
import PlayerCore

extension LibraryStateMachine {
    /// How often an episode's download redraws its list at most.
    static let downloadRedrawInterval: TimeInterval = 0.5

    /// `d` on an episode: keeps it on disk in the background. The list shows how far it got and a
    /// failure its typed error; a second `d` on an episode already downloading, or downloaded,
    /// does nothing.
    mutating func downloadSelected() -> [LibraryEffect] {
        guard case .episode(let record)? = model.selectedEntry, !record.downloaded, downloading[record.id] == nil else { return [] }
        downloading[record.id] = .distantPast
        return [.download(episode: record.id)]
    }

    /// The list follows a download's progress, at most twice a second.
    mutating func downloadProgressed(_ episode: Int64, at now: Date) -> [LibraryEffect] {
        guard let last = downloading[episode], now.timeIntervalSince(last) >= Self.downloadRedrawInterval else { return [] }
        downloading[episode] = now
        return refreshEpisodes()
    }

    mutating func downloadFinished(_ episode: Int64, failure: PlaybackError?) -> [LibraryEffect] {
        downloading[episode] = nil
        if let failure { alert(failure, operation: .download) }
        return refreshEpisodes()
    }

    /// Reads the Episodes list again when it is the one shown (else the screen is redrawn).
    mutating func refreshEpisodes() -> [LibraryEffect] {
        guard model.tab == .podcasts, model.episodesOf != nil else {
            model.changed()
            return []
        }
        return [.reload]
    }
}
