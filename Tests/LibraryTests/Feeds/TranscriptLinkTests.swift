import Foundation
import Library
import PlayerCore
import TestProcesses
import Testing

/// Which `podcast:transcript` of an item is kept: a format Tonearm reads, at an http(s) address,
/// timed before HTML, WebVTT before SRT before JSON, the first named among equals.
@Suite("Transcript links in feeds")
struct TranscriptLinkTests {
    static func episode(_ transcripts: String) throws -> FeedEpisode {
        let xml = """
            <rss xmlns:podcast="\(FeedFixtures.podcastNamespace)"><channel><title>T</title>
            <item><guid>1</guid><title>One</title>\(transcripts)</item></channel></rss>
            """
        return try #require(RSSParser.parse(Data(xml.utf8), feedURL: URL(string: "https://feeds.example.org/show.xml")).episodes.first)
    }

    @Test func theBestReadableTranscriptIsKept() throws {
        let episode = try Self.episode("""
            <podcast:transcript url="https://e.org/t.html" type="text/html"/>
            <podcast:transcript url="https://e.org/t.json" type="application/json" language="en"/>
            <podcast:transcript url="t.srt" type="application/x-subrip" rel="captions"/>
            <podcast:transcript url="https://e.org/t.vtt" type="text/vtt"/>
            <podcast:transcript url="https://e.org/t2.vtt" type="text/vtt"/>
            """)
        #expect(episode.transcript == TranscriptLink(url: URL(string: "https://e.org/t.vtt")!, format: .webVTT))
        // A relative address is the feed's; the type may be left out when the name says it.
        #expect(try Self.episode(#"<podcast:transcript url="t.srt"/>"#).transcript?.url.absoluteString == "https://feeds.example.org/t.srt")
        #expect(try Self.episode(#"<podcast:transcript url="https://e.org/t.srt"/>"#).transcript?.format == .srt)
    }

    @Test func unreadableOrUnsafeTranscriptsAreNone() throws {
        #expect(try Self.episode(#"<podcast:transcript url="https://e.org/t.pdf" type="application/pdf"/>"#).transcript == nil)
        #expect(try Self.episode(#"<podcast:transcript url="file:///etc/shadow" type="text/vtt"/>"#).transcript == nil)
        #expect(try Self.episode(#"<podcast:transcript type="text/vtt"/>"#).transcript == nil)
        #expect(try Self.episode("").transcript == nil)
    }
}
