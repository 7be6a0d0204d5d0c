import Foundation
import Library
import PlayerCore
import Synchronization

/// A fresh directory under the system's temporary directory, removed when the test is done.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-store-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    var databaseURL: URL { url.appendingPathComponent(LibraryStore.fileName) }
}

/// A settable clock for the store's timestamps and for analytics retention.
final class StoreTestClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_750_000_000)) {
        current = Mutex(start)
    }

    var now: Date { current.withLock { $0 } }

    func set(_ date: Date) { current.withLock { $0 = date } }

    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }

    var function: @Sendable () -> Date { { self.now } }
}

/// Feed fixtures.
enum StoreFeedFixtures {
    static let feedURL = URL(string: "https://feeds.example.org/daily.xml")!

    /// Episode `n` of a feed: guid `ep-n`, published `n` days after a fixed date.
    static func episode(_ number: Int, title: String? = nil, dated: Bool = true) -> FeedEpisode {
        FeedEpisode(
            guid: "ep-\(number)", title: title ?? "Episode \(number)", summary: "About \(number)",
            publishedAt: dated ? Date(timeIntervalSince1970: 1_700_000_000 + Double(number) * 86_400) : nil,
            duration: 1_800,
            enclosure: Enclosure(url: URL(string: "https://cdn.example.org/\(number).mp3")!, length: 12_345, type: "audio/mpeg"))
    }

    static func feed(title: String = "The Daily Show", episodes: [FeedEpisode]) -> PodcastFeed {
        PodcastFeed(
            title: title, author: "Someone", summary: "A show", link: URL(string: "https://example.org/show"),
            imageURL: URL(string: "https://example.org/art.jpg"), episodes: episodes)
    }
}

/// Runs `body` and returns the `PlaybackError` it threw (nil when it threw nothing).
func playbackError<T>(_ body: () throws(PlaybackError) -> T) -> PlaybackError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}
