/// What a feed refresh changed, for the CLI's "3 new episodes" line.
package struct RefreshResult: Sendable, Equatable, Codable {
    /// The podcast after the refresh.
    package var podcast: PodcastRecord
    /// Episodes new to the library.
    package var added: Int
    /// Known episodes whose title, summary, date, duration, audio or chapters changed.
    package var updated: Int

    package init(podcast: PodcastRecord, added: Int, updated: Int) {
        self.podcast = podcast
        self.added = added
        self.updated = updated
    }
}
