import Foundation
import FuzzSupport
import Library
import PlayerCore

// The RSS reader. Input: the document.
//
// Contract: a `PodcastFeed` or `.documentTooLarge`, `.wrongContentType`, `.invalidFeed`; every
// text is clean (summaries may keep line breaks) and within its cap; every URL is http(s); guids
// are unique and non-empty; at most `maxEpisodesPerFeed` episodes.
@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzRSS(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let body = Data(fuzzBytes(data, size))
    do {
        let feed = try RSSParser.parse(body, feedURL: URL(string: "https://podcast.example/feed.xml"))
        fuzzCheckClean(feed.title, maxLength: LibraryLimits.maxTitleLength)
        fuzzCheck(!feed.title.isEmpty, "empty podcast title")
        fuzzCheckClean(feed.author, maxLength: LibraryLimits.maxAuthorLength)
        fuzzCheckClean(feed.summary, allowsNewlines: true, maxLength: LibraryLimits.maxSummaryLength)
        fuzzCheckWebURL(feed.link)
        fuzzCheckWebURL(feed.imageURL)
        fuzzCheck(feed.episodes.count <= LibraryLimits.maxEpisodesPerFeed, "\(feed.episodes.count) episodes")
        var guids: Set<String> = []
        for episode in feed.episodes {
            fuzzCheck(!episode.guid.isEmpty && guids.insert(episode.guid).inserted, "empty or repeated guid")
            fuzzCheckClean(episode.guid)
            fuzzCheckClean(episode.title, maxLength: LibraryLimits.maxTitleLength)
            fuzzCheckClean(episode.summary, allowsNewlines: true, maxLength: LibraryLimits.maxSummaryLength)
            fuzzCheck(episode.duration.map { $0.isFinite && $0 >= 0 } ?? true, "duration \(String(describing: episode.duration))")
            // A date the store and the RFC 822 writer can turn into whole seconds.
            fuzzCheck(episode.publishedAt.map { abs($0.timeIntervalSince1970) < 1e12 } ?? true, "date \(String(describing: episode.publishedAt))")
            fuzzCheckWebURL(episode.enclosure?.url)
            fuzzCheck((episode.enclosure?.length ?? 1) > 0, "non-positive enclosure length")
            fuzzCheckClean(episode.enclosure?.type, maxLength: LibraryLimits.maxMIMETypeLength)
            fuzzCheckWebURL(episode.chaptersURL)
        }
    } catch {
        fuzzCheck(error, isOneOf: [.documentTooLarge, .wrongContentType, .invalidFeed])
    }
    return 0
}

runLibFuzzer(fuzzRSS)
