import Foundation

/// A named part of an episode or a file, in media seconds from its start.
///
/// Chapters come from two places: the file itself (ID3v2 `CHAP` frames in an mp3, an MP4 chapter
/// track, read by `Media`'s decoder) and a podcast's Podcasting 2.0 JSON chapters document (the
/// feed's `podcast:chapters`, fetched by `Services`). Either way they arrive here sanitised, sorted
/// and bounded, so the rest of the player never re-checks them.
public struct Chapter: Sendable, Hashable, Codable {
    /// Where the chapter starts, seconds (finite, at least 0).
    public let start: TimeInterval
    /// Where it ends when the source says so; otherwise where the next one starts.
    public let end: TimeInterval?
    /// Sanitised one-line title; nil when the source gave none.
    public let title: String?

    public init(start: TimeInterval, end: TimeInterval? = nil, title: String?) {
        self.start = start.isFinite ? max(0, start) : 0
        self.end = end.flatMap { $0.isFinite && $0 > start ? $0 : nil }
        self.title = TextSanitizer.optionalSingleLine(title)
    }
}

/// Where an item's chapters came from.
public enum ChapterOrigin: String, Sendable, Hashable, Codable {
    /// The media file's own chapters (ID3 `CHAP`, MP4 chapter track).
    case embedded
    /// The podcast's JSON chapters document.
    case feed
}

/// The chapters of one item, in order, with the pure rules about them: which one a position is
/// in and where "next" and "previous" lead.
public struct ChapterList: Sendable, Hashable, Codable {
    /// The most chapters kept of one item: a hostile file or document could name millions, and no
    /// listener navigates more than a few hundred.
    public static let maxCount = 500
    /// Within this many seconds of a chapter's start, "previous" goes to the chapter before it
    /// instead of back to this one's start (what every player does, so a double press walks back).
    public static let restartWindow: TimeInterval = 3
    /// Positions are compared with this much slack: a seek lands on a chapter's start, and the
    /// position reported after it may round a hair below it.
    public static let tolerance: TimeInterval = 0.05

    /// The track the chapters belong to (`Track.id`).
    public let trackID: String
    public let origin: ChapterOrigin
    /// Sorted by start, no two with the same start, at most `maxCount`.
    public let chapters: [Chapter]

    /// Sorts by start, drops a chapter that starts where the one before it starts (the first
    /// wins) and keeps at most `maxCount`.
    public init(trackID: String, origin: ChapterOrigin, chapters: [Chapter]) {
        self.trackID = trackID
        self.origin = origin
        var kept: [Chapter] = []
        for chapter in chapters.enumerated().sorted(by: { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }).map(\.element) {
            if let last = kept.last, abs(last.start - chapter.start) < Self.tolerance { continue }
            kept.append(chapter)
            if kept.count == Self.maxCount { break }
        }
        self.chapters = kept
    }

    public var isEmpty: Bool { chapters.isEmpty }
    public var count: Int { chapters.count }

    /// Which chapters an item plays with when it has both kinds. The file's own chapters win:
    /// they were written against this very audio (a feed's document may describe another cut of
    /// the episode, with or without ads); the feed's are used when the file has none.
    public static func preferred(embedded: ChapterList?, feed: ChapterList?) -> ChapterList? {
        if let embedded, !embedded.isEmpty { return embedded }
        if let feed, !feed.isEmpty { return feed }
        return nil
    }

    /// The index of the chapter `position` is in; nil before the first one starts.
    public func index(at position: TimeInterval) -> Int? {
        guard position.isFinite else { return nil }
        return chapters.lastIndex { $0.start <= position + Self.tolerance }
    }

    /// Where "next chapter" seeks from `position`: the start of the chapter after the current
    /// one; nil in the last chapter (the front end then means the next item).
    public func nextStart(after position: TimeInterval) -> TimeInterval? {
        let next = index(at: position).map { $0 + 1 } ?? 0
        return next < chapters.count ? chapters[next].start : nil
    }

    /// Where "previous chapter" seeks from `position`: the start of the current chapter, or of
    /// the one before it within `restartWindow` of the current one's start; nil before the first
    /// chapter (nothing to go back to).
    public func previousStart(before position: TimeInterval) -> TimeInterval? {
        guard let current = index(at: position) else { return nil }
        if position - chapters[current].start < Self.restartWindow, current > 0 { return chapters[current - 1].start }
        return chapters[current].start
    }

    /// The place of `position` among the chapters, for showing it; nil before the first.
    public func current(at position: TimeInterval) -> ChapterPosition? {
        index(at: position).map { ChapterPosition(index: $0, count: chapters.count, title: chapters[$0].title) }
    }
}

/// Which chapter plays, as front ends show it ("Chapter 3/12: Title").
public struct ChapterPosition: Sendable, Hashable, Codable {
    /// From 0.
    public let index: Int
    public let count: Int
    public let title: String?

    public init(index: Int, count: Int, title: String?) {
        self.index = index
        self.count = count
        self.title = title
    }
}
