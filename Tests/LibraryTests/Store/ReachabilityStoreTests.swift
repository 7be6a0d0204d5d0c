import Foundation
import Library
import PlayerCore
import Testing

/// The library keeps each item's runs and how runs ended per host class, across openings, and
/// forgets an item with its podcast or station.
@Suite("Reachability in the library")
struct ReachabilityStoreTests {
    @Test func runsAreKeptPerItemAndEndingsPerHostClass() throws {
        let directory = try TemporaryDirectory()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var store = try LibraryStore.open(directory: directory.url)
        let podcast = try store.addPodcast(feedURL: StoreFeedFixtures.feedURL, feed: StoreFeedFixtures.feed(episodes: []), validators: .none)
        let station = try store.addStation(name: "Night", url: URL(string: "http://192.168.1.5:8000/live")!)
        let feed = ReachabilityItem.feed(podcastID: podcast.id)
        #expect(try store.reachability(feed) == ReachabilityRecord())

        try store.recordRun(feed, hostClass: .internet, ending: .succeeded(tries: 2), at: start)
        try store.recordRun(feed, hostClass: .internet, ending: .failed(.connectionTimeout), at: start + 60)
        let after = try store.recordRun(feed, hostClass: .internet, ending: .failed(.httpNotFound), at: start + 120)
        try store.recordRun(.station(stationID: station.id), hostClass: .local, ending: .failed(.connectionFailed), at: start)
        try store.recordRun(.downloads(podcastID: podcast.id), hostClass: .internet, ending: .succeeded(tries: 1), at: start)
        #expect(after == ReachabilityRecord(
            consecutiveFailures: 2, failingSince: start + 60, lastAttempt: start + 120, lastSuccess: start, lastError: .httpNotFound,
            recoveredRuns: 1, failedRuns: 2))

        // Reopened: the same.
        store = try LibraryStore.open(directory: directory.url)
        #expect(try store.reachability(feed) == after)
        #expect(Set(try store.reachabilityEntries().map(\.item)) == [feed, .station(stationID: station.id), .downloads(podcastID: podcast.id)])
        let endings = try store.runEndings()
        #expect(endings[.internet]?.succeededAtTry == [1: 1, 2: 1])
        #expect(endings[.internet]?.neverRecovered == 2)
        #expect(endings[.internet]?.recoveredAfterRetries == 1)
        #expect(endings[.local]?.neverRecovered == 1)

        // Gone with the podcast and the station; the per-class endings stay (they name nothing).
        try store.removePodcast(id: podcast.id)
        try store.removeStation(named: "Night")
        #expect(try store.reachabilityEntries().isEmpty)
        #expect(try store.runEndings()[.internet]?.neverRecovered == 2)
    }
}
