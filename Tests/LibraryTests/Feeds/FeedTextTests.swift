import Foundation
import Library
import PlayerCore
import Testing

/// Summaries as the parser produces them, through whole feeds (the text cleaner is internal).
@Suite("Feed summaries")
struct FeedTextTests {
    func summary(_ description: String) throws -> String? {
        let xml = "<rss><channel><title>T</title><item><guid>1</guid><description>\(description)</description></item></channel></rss>"
        return try RSSParser.parse(Data(xml.utf8)).episodes.first?.summary
    }

    @Test func paragraphsBreaksAndListsBecomeLines() throws {
        #expect(try summary("<![CDATA[<p>One</p><p>Two<br/>Three</p><ul><li>a</li><li>b</li></ul>]]>") == "One\nTwo\nThree\na\nb")
    }

    @Test func scriptsStylesAndCommentsVanish() throws {
        #expect(try summary("<![CDATA[Hi<script>alert('x')</script><style>p{}</style><!-- secret --> there]]>") == "Hi there")
    }

    @Test func entitiesDecodeOnceAndUnknownOnesStay() throws {
        #expect(try summary("Tom &amp;amp; Jerry &amp;mdash; &amp;#8220;q&amp;#x201D; &amp;bogus; a &lt; b") == "Tom & Jerry — “q” &bogus; a < b")
    }

    @Test func blankLinesFoldAndControlsGo() throws {
        #expect(try summary("<![CDATA[<p>A</p><p></p><p>B</p>]]>") == "A\nB")
        #expect(try summary("<![CDATA[A<br><br><br><br>B\u{9D}\u{202E}]]>") == "A\n\nB")
        #expect(try summary("&amp;#27;[31mred") == "[31mred")
    }

    @Test func longSummariesAreCapped() throws {
        let text = try #require(try summary(String(repeating: "word ", count: 3_000)))
        #expect(text.count <= LibraryLimits.maxSummaryLength && text.count > LibraryLimits.maxSummaryLength - 10)
        #expect(text.hasSuffix("…"))
    }

    /// Markup is read byte by byte; text in any script, and markup around it, comes through whole.
    @Test func textInOtherScriptsSurvivesTheMarkupAroundIt() throws {
        #expect(try summary("<![CDATA[<p>Привет, &eacute;t&eacute;</p><P CLASS=\"x\">日本語 &#x1F600;</P>]]>") == "Привет, été\n日本語 😀")
        #expect(try summary("<![CDATA[<a title=\"→ > ←\">lien</a> <éclat> &nbsp;naïve <!-- ça --> fin]]>") == "lien <éclat> naïve fin")
        #expect(try summary("<![CDATA[<SCRIPT>var s = 'ü';</SCRIPT>Grüße<H2>Ende</H2>]]>") == "Grüße\nEnde")
    }

    /// Lines end at a line feed; a carriage return, alone or before the line feed, is a space
    /// inside the line (CR LF is one character, and the summary used to be split by characters).
    @Test func carriageReturnsAreSpacesAndLineFeedsEndLines() throws {
        #expect(try summary("one&#13;&#10;two&#13;three&#10;four&#10;&#10;&#10;five") == "one two three\nfour\n\nfive")
        #expect(try summary("&#10;&#13;&#10;lead&#10;\u{301}mark&#13;") == "lead\n\u{301}mark")
    }

    @Test func emptyAfterCleaningIsNil() throws {
        #expect(try summary("<![CDATA[<p> </p><br/>]]>") == nil)
    }
}
