import Foundation
import PlayerCore
import Testing

@testable import Library

/// The "up next" queue in the store: order, insertion, moves, one entry per item, and entries
/// that go with what they name.
@Suite("Library store: the queue")
struct QueueStoreTests {
    struct Library {
        let temporary: TemporaryDirectory
        let store: LibraryStore
        let episodes: [Int64]
        let station: Int64

        init() throws {
            temporary = try TemporaryDirectory()
            store = try LibraryStore.open(directory: temporary.url)
            let podcast = try store.addPodcast(
                feedURL: StoreFeedFixtures.feedURL, feed: StoreFeedFixtures.feed(episodes: (1...3).map { StoreFeedFixtures.episode($0) }),
                validators: FeedValidators())
            episodes = try store.episodes(podcastID: podcast.id).map(\.id).sorted()
            station = try store.addStation(name: "Night FM", url: URL(string: "https://radio.example.org/night")!, genre: "Jazz").id
        }
    }

    @Test func entriesKeepTheirOrderAndCanBePutAnywhere() throws {
        let l = try Library()
        try l.store.enqueue(.episode(l.episodes[0]))
        try l.store.enqueue(.station(l.station))
        let front = try l.store.enqueue(.episode(l.episodes[1]), at: 0)
        #expect(front.index == 0)
        let queue = try l.store.queue()
        #expect(queue.map(\.target) == [.episode(l.episodes[1]), .episode(l.episodes[0]), .station(l.station)])
        #expect(queue.map(\.index) == [0, 1, 2])
        #expect(queue[2].title == "Night FM" && queue[2].detail == "Jazz" && queue[2].kind == "station")
        #expect(queue[0].detail == "The Daily Show")

        try l.store.moveInQueue(entryID: queue[0].id, to: 99)
        #expect(try l.store.queue().map(\.target) == [.episode(l.episodes[0]), .station(l.station), .episode(l.episodes[1])])
        try l.store.removeFromQueue(entryID: queue[2].id)
        #expect(try l.store.queue().map(\.target) == [.episode(l.episodes[0]), .episode(l.episodes[1])])
        #expect(try l.store.queue().map(\.index) == [0, 1])
    }

    @Test func anItemIsQueuedOnceAndOnlyIfTheLibraryHasIt() throws {
        let l = try Library()
        try l.store.enqueue(.episode(l.episodes[0]))
        #expect(throws: PlaybackError(.alreadyInLibrary)) { try l.store.enqueue(.episode(l.episodes[0])) }
        #expect(throws: PlaybackError(.notInLibrary)) { try l.store.enqueue(.episode(9_999)) }
        #expect(throws: PlaybackError(.notInLibrary)) { try l.store.enqueue(.session(1)) }
        #expect(throws: PlaybackError(.notInLibrary)) { try l.store.removeFromQueue(entryID: 9_999) }
        #expect(try l.store.queue().count == 1)
    }

    @Test func removingByItemAndClearing() throws {
        let l = try Library()
        for id in l.episodes { try l.store.enqueue(.episode(id)) }
        #expect(try l.store.removeFromQueue(.episode(l.episodes[1])))
        #expect(try !l.store.removeFromQueue(.episode(l.episodes[1])))
        #expect(try l.store.queue().map(\.target) == [.episode(l.episodes[0]), .episode(l.episodes[2])])
        try l.store.clearQueue()
        #expect(try l.store.queue().isEmpty)
        #expect(try l.store.episodes(podcastID: try l.store.podcasts()[0].id).count == 3, "clearing keeps the episodes")
    }

    @Test func anEntryGoesWithWhatItNames() throws {
        let l = try Library()
        try l.store.enqueue(.station(l.station))
        try l.store.enqueue(.episode(l.episodes[0]))
        try l.store.removeStation(named: "Night FM")
        try l.store.removePodcast(id: try l.store.podcasts()[0].id)
        #expect(try l.store.queue().isEmpty)
    }
}
