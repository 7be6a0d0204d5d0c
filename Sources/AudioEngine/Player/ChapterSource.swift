import PlayerCore

/// Where the player gets an item's chapters from outside its file (a podcast's JSON chapters
/// document). The engine does no network I/O of its own; `PlayerKit` plugs in the chapters
/// service.
package protocol ChapterSource: Sendable {
    /// The chapters of `track`, or why they could not be had; nil when it has none to look for.
    /// Asked once per item when it loads; a failure never stops playback.
    func chapters(for track: Track) async -> Result<ChapterList, PlaybackError>?
}

/// The chapters the player knows for the items on its decks, and which ones it has told.
///
/// The rule for an item with both kinds is `ChapterList.preferred`: the file's own chapters win
/// unless it has none.
struct KnownChapters {
    private var embedded: [String: ChapterList] = [:]
    private var feed: [String: ChapterList] = [:]
    /// Items whose feed chapters were asked for (so a reload after a reconnect does not ask again).
    private var asked: Set<String> = []
    /// What was last published: the list and the chapter the position was in.
    private(set) var publishedList: ChapterList?
    private(set) var publishedPosition: ChapterPosition?

    mutating func learned(_ list: ChapterList) {
        switch list.origin {
        case .embedded: embedded[list.trackID] = list
        case .feed: feed[list.trackID] = list
        }
    }

    /// True the first time `trackID`'s feed chapters are asked for.
    mutating func asks(_ trackID: String) -> Bool { asked.insert(trackID).inserted }

    func list(for trackID: String?) -> ChapterList? {
        guard let trackID else { return nil }
        return ChapterList.preferred(embedded: embedded[trackID], feed: feed[trackID])
    }

    /// Forgets the chapters of items on no deck any more.
    mutating func keep(only trackIDs: Set<String>) {
        embedded = embedded.filter { trackIDs.contains($0.key) }
        feed = feed.filter { trackIDs.contains($0.key) }
        asked = asked.filter { trackIDs.contains($0) }
    }

    /// The list to publish for the current item, if it differs from the one told.
    mutating func listChange(current trackID: String?) -> ChapterList?? {
        let list = list(for: trackID)
        guard list != publishedList else { return nil }
        publishedList = list
        return .some(list)
    }

    /// The chapter to publish for `position` of the current item, if it differs from the one told.
    mutating func positionChange(at position: Double) -> ChapterPosition?? {
        let current = publishedList?.current(at: position)
        guard current != publishedPosition else { return nil }
        publishedPosition = current
        return .some(current)
    }

    /// Whether a chapter is being shown that has to be cleared along with the list.
    mutating func clearPosition() -> Bool {
        guard publishedPosition != nil else { return false }
        publishedPosition = nil
        return true
    }
}
