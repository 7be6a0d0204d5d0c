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
        q.options.consume = .on
        #expect(q.upcoming(after: 2) == [3, 1])
        q.options.consume = .off
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

    // MARK: As mpd 0.23 edits its queue

    static func stream(_ name: String) -> MPDEntry {
        let track = Track(id: name, url: URL(string: "http://radio.example/\(name)")!, kind: .liveStream, title: name)
        return MPDEntry(uri: "http://radio.example/\(name)", track: track, name: name)
    }

    static func titles(_ q: MPDQueue) -> [String] { q.songs.map { $0.entry.title ?? "" } }

    @Test func aMoveMarksOnlyTheSongsThatMovedAndAMoveInPlaceChangesNothing() throws {
        var q = try Self.queue(["a", "b", "c", "d", "e"])
        let seen = q.version
        try q.move(0..<2, to: 1)
        #expect(Self.titles(q) == ["c", "a", "b", "d", "e"])
        #expect(q.changes(since: seen) == [0, 1, 2], "d and e did not move")
        let after = q.version
        try q.move(1..<2, to: 1)
        #expect(q.version == after, "a move to where the songs are is no change")
        #expect(throws: MPDAck(.argument, "Bad song index")) { try q.move(3..<10, to: 0) }
        #expect(throws: MPDAck(.argument, "Bad song index")) { try q.move(0..<2, to: 4) }
    }

    /// A version newer than the queue's asks for every song, as mpd answers it.
    @Test func plchangesWithAVersionNewerThanTheQueuesIsEverySong() throws {
        let q = try Self.queue(["a", "b", "c"])
        #expect(q.changes(since: q.version + 5) == [0, 1, 2])
        #expect(q.changes(since: q.version).isEmpty)
    }

    @Test func anEmptyDeleteChangesNothing() throws {
        var q = try Self.queue(["a", "b"])
        let version = q.version
        try q.delete(2..<2)
        #expect(q.version == version && q.count == 2)
    }

    @Test func swapExchangesTwoSongsAndMarksBoth() throws {
        var q = try Self.queue(["a", "b", "c"])
        let seen = q.version
        try q.swap(0, 2)
        #expect(Self.titles(q) == ["c", "b", "a"])
        #expect(q.changes(since: seen) == [0, 2])
        #expect(q.upcoming(after: 3) == [2, 1], "without random the play order follows the places")
        try q.swap(id: 2, id: 3)
        #expect(Self.titles(q) == ["b", "c", "a"])
        #expect(throws: MPDAck(.argument, "Bad song index")) { try q.swap(0, 3) }
        #expect(throws: MPDAck(.noExist, "No such song")) { try q.swap(id: 1, id: 9) }
    }

    /// mpd's shuffle: while playing, the current song moves to the start of the range and the
    /// rest is shuffled after it; while stopped no song stays current.
    @Test func shuffleKeepsTheCurrentSongFirstWhilePlayingAndDropsItWhenStopped() throws {
        var q = try Self.queue((0..<10).map { "s\($0)" })
        q.setCurrent(6)
        try q.shuffle(2..<10, playing: true)
        #expect(q.songs[2].id == 6 && q.currentID == 6)
        #expect(Set(q.songs.map(\.id)) == Set(1...10))
        #expect(q.songs[0].id == 1 && q.songs[1].id == 2, "outside the range nothing moves")
        try q.shuffle(0..<10, playing: false)
        #expect(q.currentID == nil)
        let version = q.version
        try q.shuffle(3..<4, playing: true)
        #expect(q.version == version, "one song is nothing to shuffle")
    }

    /// A priority orders random play: the raised songs play right after the current one; it
    /// changes nothing without random, and a song that starts loses it.
    @Test func prioritiesOrderRandomPlayAndAreSpentWhenTheSongStarts() throws {
        var q = try Self.queue((0..<20).map { "s\($0)" })
        q.setCurrent(1)
        try q.setPriority(7, positions: 10..<12)
        #expect(q.upcoming(after: 1) == Array(2...20), "without random the order is the queue's")
        #expect(q.songs[10].priority == 7 && q.songs[11].priority == 7)
        q.setRandom(true)
        #expect(Set(q.upcoming(after: 1).prefix(2)) == [11, 12])
        try q.setPriority(9, id: 20)
        #expect(q.upcoming(after: 1).first == 20)
        #expect(Set(q.upcoming(after: 1).prefix(3)) == [20, 11, 12])
        let added = try q.add(Self.entry("late"))
        #expect(!q.upcoming(after: 1).prefix(3).contains(added), "a new song comes after the prioritised ones")
        let version = q.version
        #expect(q.started(20) == [.playlist])
        #expect(q.songs[19].priority == 0 && q.version == version + 1)
        #expect(throws: MPDAck(.argument, "Bad song index")) { try q.setPriority(1, positions: 30..<31) }
        #expect(throws: MPDAck(.noExist, "No such song")) { try q.setPriority(1, id: 99) }
    }

    /// `rangeid`: a start within the song, no range on the song heard, an end at or past the
    /// song's end taken as none, an end before it refused (Tonearm plays a song to its end).
    @Test func aRangeStartsASongLaterAndIsCheckedAsMPDChecksIt() throws {
        var q = try Self.queue(["a", "b"])
        try q.setRange(id: 2, start: 12.5, end: 0, playing: false)
        #expect(q.songs[1].range?.field == "12.500-")
        #expect(q.songs[1].range?.startSeconds == 12.5)
        try q.setRange(id: 2, start: 3, end: 60, playing: false)
        #expect(q.songs[1].range?.field == "3.000-", "an end at the song's end is no end")
        try q.setRange(id: 2, start: 0, end: 0, playing: false)
        #expect(q.songs[1].range == nil)
        #expect(throws: MPDAck(.argument, "Invalid start offset")) { try q.setRange(id: 2, start: 61, end: 0, playing: false) }
        #expect(throws: MPDAck(.argument, "Tonearm plays a song to its end: give a range without an end (START:)")) {
            try q.setRange(id: 2, start: 1, end: 30, playing: false)
        }
        q.setCurrent(1)
        #expect(throws: MPDAck(.permission, "Cannot edit the current song")) { try q.setRange(id: 1, start: 1, end: 0, playing: true) }
        #expect(throws: MPDAck(.noExist, "No such song")) { try q.setRange(id: 9, start: 1, end: 0, playing: false) }
        var streams = MPDQueue()
        try streams.add(Self.stream("radio"))
        #expect(throws: MPDAck.self) { try streams.setRange(id: 1, start: 1, end: 0, playing: false) }
    }

    /// Tags are edited on streams, never on a local file, as mpd allows; a cleared tag and an
    /// added one show in the song's fields.
    @Test func tagsOfAStreamAreEditedAndALocalFilesAreNot() throws {
        var q = try Self.queue(["a"])
        try q.add(Self.stream("radio"))
        #expect(throws: MPDAck(.permission, "Cannot edit tags of local file")) { try q.editTags(id: 1) { $0.add("Genre", "Jazz") } }
        let seen = q.version
        try q.editTags(id: 2) { $0.add("Genre", "Jazz") }
        try q.editTags(id: 2) { $0.clear("Name") }
        #expect(q.changes(since: seen) == [1])
        let keys = q.songs[1].tagEdits.applied(to: MPDStatus.songFields(q.songs[1].entry, position: 1, id: 2)).fields.map(\.key)
        #expect(keys.contains("Title") && !keys.contains("Name"))
        #expect(keys.firstIndex(of: "Genre").map { $0 < (keys.firstIndex(of: "Pos") ?? 0) } == true, "an added tag is told before Pos")
        try q.editTags(id: 2) { $0.clear(nil) }
        let cleared = q.songs[1].tagEdits.applied(to: MPDStatus.songFields(q.songs[1].entry, position: 1, id: 2)).fields.map(\.key)
        #expect(cleared.allSatisfy { !MPDTagNames.all.contains($0) })
        #expect(cleared.contains("file") && cleared.contains("Pos") && cleared.contains("Id"))
        #expect(throws: MPDAck(.noExist, "No such song")) { try q.editTags(id: 9) { $0.clear(nil) } }
    }

    /// `single`: the song after the one that ended waits, current (mpd pauses at its start;
    /// Tonearm stops there), and a `single oneshot` is spent; at the end of the queue no song is
    /// current, and a client's stop keeps the song.
    @Test func underSingleTheNextSongWaitsAndOneshotIsSpent() throws {
        var q = try Self.queue(["a", "b", "c"])
        q.setCurrent(1)
        q.options.single = .oneshot
        #expect(q.finished(keepingCurrent: false) == [.options])
        #expect(q.currentID == 2 && q.options.single == .off)
        q.options.single = .on
        #expect(q.finished(keepingCurrent: false).isEmpty)
        #expect(q.currentID == 3 && q.options.single == .on)
        #expect(q.finished(keepingCurrent: false).isEmpty)
        #expect(q.currentID == nil, "after the last song none is current")
        q.setCurrent(1)
        _ = q.finished(keepingCurrent: true)
        #expect(q.currentID == 1)
    }

    /// `consume oneshot` (MPD 0.24's) removes one song and turns itself off.
    @Test func consumeOneshotRemovesOneSongAndIsSpent() throws {
        var q = try Self.queue(["a", "b", "c"])
        q.setCurrent(1)
        q.options.consume = .oneshot
        _ = q.started(2)
        #expect(q.consume(leaving: 1) == [.playlist, .options])
        #expect(Self.titles(q) == ["b", "c"] && q.options.consume == .off)
        _ = q.started(3)
        #expect(q.consume(leaving: 2).isEmpty)
        #expect(q.count == 2)
        q.options.consume = .on
        #expect(q.cursor.options.consume)
    }

    /// `nextsong` as mpd tells it: the next song under `single` too, the song itself with
    /// `single` and `repeat`; `next` goes to the next song whatever `single` says.
    @Test func theNextSongIgnoresSingleAsMPDsDoes() throws {
        var q = try Self.queue(["a", "b", "c"])
        q.setCurrent(2)
        q.options.single = .on
        #expect(q.upcoming(after: 2).isEmpty)
        #expect(q.nextIgnoringSingle(after: 2) == 3)
        #expect(q.nextSongForStatus == 3)
        q.options.repeat = true
        #expect(q.nextSongForStatus == 2)
        q.options.single = .off
        q.setCurrent(3)
        #expect(q.nextSongForStatus == 1, "with repeat the last song is followed by the first")
    }
}

