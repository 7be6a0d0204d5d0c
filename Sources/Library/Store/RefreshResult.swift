/// What a feed refresh changed, for the CLI's "3 new episodes" line.
public struct RefreshResult: Sendable, Equatable, Codable {
    /// The podcast after the refresh.
    public var podcast: PodcastRecord
    /// Episodes new to the library.
    public var added: Int
    /// Known episodes whose title, summary, date, duration, audio or chapters changed.
    public var updated: Int

    public init(podcast: PodcastRecord, added: Int, updated: Int) {
        self.podcast = podcast
        self.added = added
        self.updated = updated
    }
}
