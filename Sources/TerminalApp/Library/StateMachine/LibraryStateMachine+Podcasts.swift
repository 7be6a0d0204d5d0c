import PlayerCore

extension LibraryStateMachine {
    /// `R` on the Podcasts tab: every feed fetched again, while the list stays on screen loading;
    /// then the list shows the new counts, and a feed that failed is an alert with its error (the
    /// first, when several did).
    mutating func refreshPodcasts() -> [LibraryEffect] {
        guard !refreshingPodcasts else { return [] }
        refreshingPodcasts = true
        model.list = model.list.startLoading()
        model.changed()
        return [.refreshPodcasts]
    }

    mutating func podcastsRefreshed(_ outcome: Result<PlaybackError?, PlaybackError>) -> [LibraryEffect] {
        refreshingPodcasts = false
        var effects: [LibraryEffect] = []
        // The listener may be on another tab by now; its list is not this one.
        if model.tab == .podcasts { effects.append(.reload) }
        let failure: PlaybackError?
        switch outcome {
        case .success(let firstFailed): failure = firstFailed
        case .failure(let error):
            failure = error
            effects.append(.record(error, operation: "refreshPodcast"))
        }
        if let failure { alert(failure, operation: .feed) }
        model.changed()
        return effects
    }

    /// New episodes of a podcast that downloads them by itself came after a refresh: a failure is
    /// an alert unless one is shown already.
    mutating func autoDownloaded(failure: PlaybackError?) -> [LibraryEffect] {
        if let failure, model.alert == nil { alert(failure, operation: .download) }
        model.changed()
        return []
    }

    /// A feed typed into the prompt: the list shows it; a failure is an alert.
    mutating func feedAdded(failure: PlaybackError?) -> [LibraryEffect] {
        guard let failure else { return [.reload] }
        alert(failure, operation: .feed)
        return []
    }
}
