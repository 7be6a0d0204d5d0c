import Foundation
import MPDProtocol
import PlayerCore
import Testing

@testable import MPD

/// The queue's rules as MPD clients rely on them: ids that never repeat, a version per change,
/// `plchanges` telling exactly what moved, and the play order the options make.
@Suite("MPD queue")
struct MPDQueueTests {
    static func entry(_ name: String, duration: Double? = 60) -> MPDEntry {
        let track = Track(id: name, url: URL(fileURLWithPath: "/music/\(name).mp3"), kind: .file, title: name, duration: duration)
        return MPDEntry(uri: "Music/\(name).mp3", track: track)
    }

    static func queue(_ names: [String]) throws -> MPDQueue {
        var q = MPDQueue()
        for name in names { try q.add(entry(name)) }
        return q
    }

    @Test func idsAreNeverReusedAndEveryChangeRaisesTheVersion() throws {
        var q = try Self.queue(["a", "b"])
        #expect(q.songs.map(\.id) == [1, 2])
        #expect(q.version == 3)
        try q.delete(id: 2)
        let id = try q.add(Self.entry("c"))
        #expect(id == 3)
        #expect(q.version == 5)
        q.clear()
        #expect(q.count == 0 && q.version == 6)
    }

    @Test func plchangesListsTheSongsThatWereAddedOrMoved() throws {
        var q = try Self.queue(["a", "b", "c", "d"])
        let seen = q.version
        #expect(q.changes(since: seen).isEmpty)
        try q.move(3..<4, to: 1)  // d moves before b: b, c shift too
        #expect(q.songs.map(\.entry.title) == ["a", "d", "b", "c"])
        #expect(q.changes(since: seen) == [1, 2, 3])
        #expect(q.changes(since: 0) == [0, 1, 2, 3])
        let afterMove = q.version
        try q.add(Self.entry("e"))
        #expect(q.changes(since: afterMove) == [4])
    }

    @Test func badPositionsAndIdsAreTheClientsError() throws {
        var q = try Self.queue(["a"])
        #expect(throws: MPDAck(.argument, "Bad song index")) { try q.delete(1..<2) }
        #expect(throws: MPDAck(.noExist, "No such song")) { try q.delete(id: 9) }
        #expect(throws: MPDAck(.argument, "Bad song index")) { try q.move(0..<1, to: 1) }
        #expect(throws: MPDAck(.argument, "Bad song index")) { try q.add(Self.entry("x"), at: 5) }
        #expect(q.count == 1)
    }

    @Test func deletingTheCurrentSongLeavesNoneCurrent() throws {
        var q = try Self.queue(["a", "b"])
        q.setCurrent(1)
        #expect(q.currentPosition == 0)
        try q.delete(0..<1)
        #expect(q.currentID == nil)
        #expect(q.songs.map(\.entry.title) == ["b"])
    }

    @Test func upcomingFollowsRepeatSingleAndConsume() throws {
        var q = try Self.queue(["a", "b", "c"])
        #expect(q.upcoming(after: 2) == [3])
        q.options.repeat = true
        // Across the wrap, once, so the player crossfades from the last song to the first.
        #expect(q.upcoming(after: 2) == [3, 1, 2])
        q.options.consume = true
        #expect(q.upcoming(after: 2) == [3, 1])
        q.options.consume = false
        q.options.single = .on
        #expect(q.upcoming(after: 2) == [2])
        q.options.repeat = false
        #expect(q.upcoming(after: 2).isEmpty)
        q.options.single = .oneshot
        #expect(q.upcoming(after: 2).isEmpty)
    }

    @Test func randomKeepsTheCurrentSongAndPlaysEverySongOnce() throws {
        var q = try Self.queue((0..<20).map { "s\($0)" })
        q.setCurrent(5)
        q.setRandom(true)
        let order = q.upcoming(after: 5)
        #expect(order.count == 19)
        #expect(Set(order) == Set(q.songs.map(\.id)).subtracting([5]))
        #expect(order != Array(6...20) + Array(1...4))
        let added = try q.add(Self.entry("late"))
        #expect(q.upcoming(after: 5).contains(added))
        q.setRandom(false)
        #expect(q.upcoming(after: 5) == Array(6...21))
    }

    @Test func previousWrapsOnlyWithRepeat() throws {
        var q = try Self.queue(["a", "b"])
        #expect(q.previous(before: 2) == 1)
        #expect(q.previous(before: 1) == nil)
        q.options.repeat = true
        #expect(q.previous(before: 1) == 2)
    }

    @Test func theQueueIsBounded() throws {
        var q = MPDQueue()
        for _ in 0..<MPDQueue.maximumLength { try q.add(Self.entry("x")) }
        #expect(throws: MPDAck(.playlistMax, "Playlist is too large")) { try q.add(Self.entry("y")) }
    }

    @Test func aTrackIdNamesItsSong() {
        let entry = Self.entry("a")
        let items = entry.items(songID: 42)
        #expect(items[0].track.id == "mpd42/a")
        #expect(MPDEntry.songID(ofTrackID: items[0].track.id) == 42)
        #expect(MPDEntry.songID(ofTrackID: "episode:3") == nil)
        let again = entry.items(songID: 42, play: 1)
        #expect(again[0].track.id != items[0].track.id)
        #expect(MPDEntry.songID(ofTrackID: again[0].track.id) == 42)
        #expect(items[0].track.url == entry.items[0].track.url)
    }
}
