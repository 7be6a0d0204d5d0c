import PlayerCore

/// The empty state: icon, title, message and an optional action.
package struct EmptyStateViewState: Sendable, Hashable, Codable {
    package let icon: Icon
    package let title: String
    package let message: String
    /// The action's title ("Add Station"), when there is one.
    package let actionTitle: String?

    package init(icon: Icon, title: String, message: String, actionTitle: String? = nil) {
        self.icon = icon
        self.title = title
        self.message = message
        self.actionTitle = actionTitle
    }

    /// The library's empty lists.
    package enum Preset: Sendable, Hashable, Codable {
        case stations
        case podcasts
        case episodes
        case sessions
        case history
        case favourites
        case queue
        /// A `/` search that matched nothing.
        case noSearchResults(query: String)
    }

    package init(_ preset: Preset, in language: Language) {
        func t(_ key: UIString) -> String { UIStrings.text(key, in: language) }
        switch preset {
        case .stations:
            self.init(
                icon: .radio, title: t(.emptyStationsTitle), message: t(.emptyStationsMessage),
                actionTitle: t(.emptyStationsAction))
        case .podcasts:
            self.init(
                icon: .podcast, title: t(.emptyPodcastsTitle), message: t(.emptyPodcastsMessage),
                actionTitle: t(.emptyPodcastsAction))
        case .episodes:
            self.init(
                icon: .episodes, title: t(.emptyEpisodesTitle), message: t(.emptyEpisodesMessage),
                actionTitle: t(.emptyEpisodesAction))
        case .sessions:
            self.init(
                icon: .session, title: t(.emptySessionsTitle), message: t(.emptySessionsMessage),
                actionTitle: t(.emptySessionsAction))
        case .history:
            self.init(icon: .radio, title: t(.emptyHistoryTitle), message: t(.emptyHistoryMessage), actionTitle: nil)
        case .favourites:
            self.init(icon: .radio, title: t(.emptyFavouritesTitle), message: t(.emptyFavouritesMessage), actionTitle: nil)
        case .queue:
            self.init(icon: .episodes, title: t(.emptyQueueTitle), message: t(.emptyQueueMessage), actionTitle: nil)
        case .noSearchResults(let query):
            self.init(
                icon: .search, title: t(.noResultsTitle),
                message: UIStrings.format(.noResultsMessage, in: language, TextSanitizer.singleLine(query)))
        }
    }
}
