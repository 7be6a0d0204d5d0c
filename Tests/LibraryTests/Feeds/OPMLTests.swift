import Foundation
import Library
import PlayerCore
import TestProcesses
import Testing

@Suite("OPML import and export")
struct OPMLTests {
    let feedBase = URL(string: "https://feeds.example.com/pods")!

    func code(_ data: Data) -> PlaybackError.Code? {
        do {
            _ = try OPMLParser.parse(data)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func nestedOutlinesDeduplicatedInOrder() throws {
        let subscriptions = try OPMLParser.parse(FeedFixtures.nestedOPML(feedBase: feedBase))
        let expected = FeedFixtures.nestedOPMLExpected(feedBase: feedBase)
        #expect(subscriptions.map(\.feedURL.absoluteString) == expected.map(\.url))
        #expect(subscriptions.map(\.title) == expected.map(\.title))
    }

    @Test func notOPMLIsInvalidFeedAndHTMLIsWrongContentType() {
        #expect(code(FeedFixtures.garbage()) == .invalidFeed)
        #expect(code(FeedFixtures.normalFeed(enclosureBase: feedBase)) == .invalidFeed)
        #expect(code(Data()) == .invalidFeed)
        #expect(code(FeedFixtures.htmlPage()) == .wrongContentType)
        #expect(code(Data("<opml version=\"2.0\"><body/></opml>".utf8)) == nil)  // empty but valid
    }

    @Test func tooLargeIsRefused() {
        var data = Data("<opml><body/></opml>".utf8)
        data.append(Data(repeating: 0x20, count: LibraryLimits.maxOPMLBytes + 1 - data.count))
        #expect(code(data) == .documentTooLarge)
    }

    @Test func writtenFileReadsBackIdentically() throws {
        let subscriptions = [
            OPMLSubscription(title: "Plain", feedURL: URL(string: "https://a.example.com/feed.xml")!),
            OPMLSubscription(title: "Quotes \"double\" & 'single' <tags>", feedURL: URL(string: "https://b.example.com/rss?a=1&b=2")!),
            OPMLSubscription(title: nil, feedURL: URL(string: "http://c.example.com/no-title")!),
            OPMLSubscription(title: "Кириллица и ü", feedURL: URL(string: "https://d.example.com/%D0%BF")!),
        ]
        let data = OPMLWriter.write(subscriptions, title: "Tonearm <export> & more", dateCreated: Date(timeIntervalSince1970: 1_709_287_200))
        #expect(try OPMLParser.parse(data) == subscriptions)
    }

    @Test func hostileTitlesAreCleanedOnWriteAndStableAfterOneRoundTrip() throws {
        let hostile = FeedFixtures.hostileTitles.enumerated().map { index, title in
            OPMLSubscription(title: title + "\"/><outline xmlUrl=\"https://evil.example/\(index)", feedURL: URL(string: "https://h.example.com/\(index)")!)
        }
        let data = OPMLWriter.write(hostile, title: "\u{1B}]52;c;eA==\u{07}Export", dateCreated: Date(timeIntervalSince1970: 0))
        let text = try #require(String(data: data, encoding: .utf8))
        #expect(!text.unicodeScalars.contains { TextSanitizer.isForbidden($0) && $0 != "\n" })
        let read = try OPMLParser.parse(data)
        #expect(read.map(\.feedURL) == hostile.map(\.feedURL))  // no injected outline
        #expect(read.map(\.title) == hostile.map { TextSanitizer.optionalSingleLine($0.title, maxLength: LibraryLimits.maxTitleLength) })
        #expect(try OPMLParser.parse(OPMLWriter.write(read, title: "again", dateCreated: Date())) == read)
    }

    @Test func writtenFileIsOPML2WithItsHead() throws {
        let data = OPMLWriter.write([], title: "My Podcasts", dateCreated: Date(timeIntervalSince1970: 1_055_217_600))
        let text = try #require(String(data: data, encoding: .utf8))
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"))
        #expect(text.contains("<opml version=\"2.0\">"))
        #expect(text.contains("<title>My Podcasts</title>"))
        #expect(text.contains("<dateCreated>Tue, 10 Jun 2003 04:00:00 GMT</dateCreated>"))
        #expect(try OPMLParser.parse(data).isEmpty)
    }
}
