import Foundation
import PlayerCore
import Testing

/// `n` and `p` between chapters: the one mapping from a command to an intent, at the boundaries.
@Suite("Chapter commands")
struct ChapterCommandTests {
    static let track = Track(id: "episode:1", url: URL(string: "https://example.com/e.mp3")!, kind: .episode, duration: 600)
    static let playing = PlayerState.playing(track: track)
    static let chapters = ChapterList(
        trackID: track.id, origin: .feed,
        chapters: [Chapter(start: 0, title: "A"), Chapter(start: 60, title: "B"), Chapter(start: 300, title: "C")])

    func intent(_ move: PlayerCommand.ChapterMove, at position: Double, chapters: ChapterList? = Self.chapters, in state: PlayerState = Self.playing)
        -> PlayerEvent?
    {
        PlayerCommand.chapter(move).intent(in: state, position: position, chapters: chapters)
    }

    @Test("next goes to the next chapter's start, from anywhere in the current one", arguments: [
        (0.0, 60.0), (59.9, 60.0), (60.0, 300.0), (61.0, 300.0), (299.9, 300.0),
    ])
    func next(_ position: Double, _ target: Double) {
        #expect(intent(.next, at: position) == .seek(to: target))
    }

    @Test("next in the last chapter, or without chapters, is the next item")
    func nextFallsBackToSkip() {
        #expect(intent(.next, at: 300) == .skip)
        #expect(intent(.next, at: 590) == .skip)
        #expect(intent(.next, at: 10, chapters: nil) == .skip)
        #expect(PlayerCommand.next.intent(in: Self.playing, position: 10) == .skip)
        let empty = ChapterList(trackID: Self.track.id, origin: .feed, chapters: [])
        #expect(intent(.next, at: 10, chapters: empty) == .skip)
    }

    @Test("previous within the first 3 s of a chapter goes to the one before; later it restarts the chapter", arguments: [
        (60.0, 0.0), (62.9, 0.0), (63.1, 60.0), (120.0, 60.0), (300.0, 60.0), (302.5, 60.0), (303.5, 300.0),
        (1.0, 0.0), (30.0, 0.0),
    ])
    func previous(_ position: Double, _ target: Double) {
        #expect(intent(.previous, at: position) == .seek(to: target))
    }

    @Test("previous without chapters does nothing")
    func previousWithoutChapters() {
        #expect(intent(.previous, at: 100, chapters: nil) == nil)
    }

    @Test("a chapter by its number, from 1")
    func number() {
        #expect(intent(.number(3), at: 0) == .seek(to: 300))
        #expect(intent(.number(1), at: 400) == .seek(to: 0))
        #expect(intent(.number(0), at: 0) == nil)
        #expect(intent(.number(4), at: 0) == nil)
    }

    @Test("chapters published for another item are not used")
    func otherItemsChapters() {
        let other = ChapterList(trackID: "episode:2", origin: .feed, chapters: Self.chapters.chapters)
        #expect(intent(.next, at: 10, chapters: other) == .skip)
        #expect(intent(.previous, at: 100, chapters: other) == nil)
    }

    @Test("a state that cannot seek refuses a chapter move")
    func refusedWithoutSeeking() {
        #expect(intent(.previous, at: 100, in: .idle) == nil)
        #expect(intent(.next, at: 100, in: .idle) == nil)
    }

    @Test("the current chapter, with the slack a seek's first report needs")
    func current() {
        #expect(Self.chapters.current(at: 59.98) == ChapterPosition(index: 1, count: 3, title: "B"))
        #expect(Self.chapters.current(at: 59.0) == ChapterPosition(index: 0, count: 3, title: "A"))
        let late = ChapterList(trackID: "x", origin: .embedded, chapters: [Chapter(start: 5, title: nil)])
        #expect(late.current(at: 1) == nil)
        #expect(late.previousStart(before: 1) == nil)
    }

    @Test("the file's own chapters win unless it has none")
    func preferred() {
        let embedded = ChapterList(trackID: "x", origin: .embedded, chapters: [Chapter(start: 0, title: "E")])
        let feed = ChapterList(trackID: "x", origin: .feed, chapters: [Chapter(start: 0, title: "F")])
        let none = ChapterList(trackID: "x", origin: .embedded, chapters: [])
        #expect(ChapterList.preferred(embedded: embedded, feed: feed) == embedded)
        #expect(ChapterList.preferred(embedded: none, feed: feed) == feed)
        #expect(ChapterList.preferred(embedded: nil, feed: feed) == feed)
        #expect(ChapterList.preferred(embedded: nil, feed: nil) == nil)
    }
}
