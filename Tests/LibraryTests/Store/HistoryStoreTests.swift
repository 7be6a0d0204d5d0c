import Foundation
import Library
import PlayerCore
import Testing

/// Titles heard on stations and the songs liked, kept in the library.
@Suite("History and favourites in the store")
struct HistoryStoreTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aRepeatedTitleIsKeptOnceAndEachStationKeepsItsNewest() throws {
        let temporary = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        try store.recordHeard(title: "Song A", artist: "Band", station: "Night FM", at: start)
        // The same block again after a reconnect, then another title, then the first again.
        try store.recordHeard(title: "Song A", artist: "Band", station: "night fm", at: start + 30)
        try store.recordHeard(title: "Song B", artist: nil, station: "Night FM", at: start + 200)
        try store.recordHeard(title: "Song A", artist: "Band", station: "Night FM", at: start + 400)
        try store.recordHeard(title: "Song A", artist: "Band", station: "Day FM", at: start + 10)
        let night = try store.history(station: "NIGHT FM")
        #expect(night.map(\.title) == ["Song A", "Song B", "Song A"])
        #expect(night.map(\.heardAt) == [start + 400, start + 200, start])
        #expect(try store.history().count == 4)
        #expect(try store.history(limit: 2).map(\.heardAt) == [start + 400, start + 200])

        for index in 0..<(LibraryLimits.maxHeardTitlesPerStation + 5) {
            try store.recordHeard(title: "Tune \(index)", artist: nil, station: "Busy FM", at: start + Double(1_000 + index))
        }
        let busy = try store.history(station: "Busy FM", limit: 10_000)
        #expect(busy.count == LibraryLimits.maxHeardTitlesPerStation)
        #expect(busy.last?.title == "Tune 5")
        // Other stations keep theirs.
        #expect(try store.history(station: "Night FM").count == 3)
    }

    @Test func hostileTitlesAreCleanedAndEmptyOnesRefused() throws {
        let temporary = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        let heard = try store.recordHeard(title: "Evil\u{1B}]52;c;aGk=\u{07} Song\u{202E}", artist: "  Band \n", station: "FM", at: start)
        #expect(!heard.title.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E })
        #expect(heard.artist == "Band")
        let empty = playbackError { () throws(PlaybackError) in try store.recordHeard(title: " \u{1B} ", artist: nil, station: "FM", at: start) }
        #expect(empty?.code == .malformedData)
    }

    @Test func aLikeIsKeptOnceShownInTheHistoryAndTakenBack() throws {
        let temporary = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        try store.recordHeard(title: "Группа крови", artist: "Кино", station: "Радио", at: start)
        try store.recordHeard(title: "Other", artist: nil, station: "Радио", at: start + 60)
        let liked = try store.like(title: "Группа крови", artist: "Кино", station: "Радио", heardAt: start, at: start + 100)
        // Liking again, written in another case, keeps the first like.
        let again = try store.like(title: "ГРУППА КРОВИ", artist: "КИНО", station: nil, heardAt: nil, at: start + 500)
        #expect(again == liked)
        #expect(try store.favourites().count == 1)
        #expect(try store.favourites().first?.likedAt == start + 100)
        #expect(try store.history().map(\.liked) == [false, true])
        try store.unlike(title: "группа крови", artist: "кино")
        #expect(try store.favourites().isEmpty)
        #expect(try store.history().allSatisfy { !$0.liked })
    }

    @Test func historyAndFavouritesSurviveReopening() throws {
        let temporary = try TemporaryDirectory()
        do {
            let store = try LibraryStore.open(directory: temporary.url)
            try store.recordHeard(title: "Song", artist: "Band", station: "FM", at: start)
            try store.like(title: "Song", artist: "Band", station: "FM", heardAt: start, at: start + 1)
        }
        let reopened = try LibraryStore.open(directory: temporary.url)
        #expect(try reopened.history().first?.liked == true)
        #expect(try reopened.favourites().map(\.song) == ["Band – Song"])
    }
}
