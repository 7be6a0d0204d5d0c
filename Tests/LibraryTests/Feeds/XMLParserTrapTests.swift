import Foundation
import Library
import PlayerCore
import Testing

/// Input that libxml2 accepts in recovery mode but Foundation's XMLParser on Linux traps on:
/// names that are not UTF-8, processing instructions without data, and DTD declarations for
/// which libxml2 reports null pointers. The readers must fail with a typed error or read on. The
/// base64 documents are the inputs the fuzz targets found (Tests/Fuzz/Crashes/rss and opml).
@Suite("XML readers: input that traps Foundation's XMLParser")
struct XMLParserTrapTests {
    func rssCode(_ data: Data) -> PlaybackError.Code? {
        do {
            _ = try RSSParser.parse(data)
            return nil
        } catch {
            return error.code
        }
    }

    func opmlCode(_ data: Data) -> PlaybackError.Code? {
        do {
            _ = try OPMLParser.parse(data)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func rssRootNameWithInvalidUTF8IsInvalidFeed() throws {
        let crash = try #require(Data(base64Encoded: """
            PD94bWwgdmVyc2lvbj0iMS4wIj8+PGZl////////////////////////////////////////////////////////////////////\
            ////////////////////////////////////////////ZWQgeG1sbnM9Imh0dHA6Ly93d3cudzMub3JnLzIwMDUvQXRvbSI+PHRp\
            dGxlPkE8L3RpdGxlPjwvZv//////////////////////////////////////////////////////////////////////////////\
            ////////////////////////////////////////////9f//////////////////////ZWVHZD4=
            """))
        #expect(rssCode(crash) == .invalidFeed)
    }

    /// A declaration that names ISO-8859-1 but is malformed: libxml2 then reads UTF-8, so the
    /// Latin-1 bytes in names must be repaired too.
    @Test func rssMalformedDeclarationWithLatin1BytesDoesNotTrap() throws {
        let crash = try #require(Data(base64Encoded: """
            PD94bWwgdmVyc2lvbj0idXRmMS5sIHZlcnNpb249InV0ZjEuMCIgZW5jb2Rpbmc9IklTTy04ODU5LTEiPz48cnNzIHZlPGJvZHk9\
            IjIuMCI+PGNoYW5uZWw+PHRpdGxlPkNhZuk8L3RpdGxlPjxpdGVtPjx0aXRsZT7pdOk8L3RpdGxlPjxlbmNsb3N1cmUgdXJsPSJo\
            dHRwOi8vYS5leGFtcGyPL3gubXAzIi8+PC9pdGVtPjwvY2hhbm5lbD48L3JzczAiIGVuY29kaW5nPSJJU08tODg1OS0xIj8+PHJz\
            cyB2ZXJzaW9uPSIyLjAiPjxjaGFubmVsPjx0aXRsZT5DYWbpPC90aXRsZT48af///////2VuY29kaW5nPSJJU08tOP//////////\
            //////////////////////////+b////////////////////////////////////////////////////////////////////////\
            /////////////////////////////////3RlbT48dGl0bGU+6ewAAAB0c2FDdOk8L3RpdGxlPjxlbmNsb3N1cmUgdXJsPSJodHRw\
            Oi8vYS5leGFtcGxlL3gubXAzIi8+PC9pdGVtPjwvY2hhbm5lbD48L3Jzcz4=
            """))
        let code = rssCode(crash)
        #expect(code == nil || code == .invalidFeed)
    }

    @Test func opmlRootNameWithInvalidUTF8IsInvalidFeed() throws {
        let crash = try #require(Data(base64Encoded: "PG///////////////////////////////////////////////3BtbCB2ZXJzaW9uPSIxLjAiPjxib2R5Lz48L29wbWw+"))
        #expect(opmlCode(crash) == .invalidFeed)
    }

    @Test func rssReadsOnPastInvalidNamesInsideTheChannel() throws {
        var data = Data(#"<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>T</title><it"#.utf8)
        data.append(contentsOf: [0xFF, 0xC3])
        data.append(Data(#"em/><item><title>One</title><enclosure u"#.utf8))
        data.append(0xFE)
        data.append(Data(#"rl="x" url="http://a.example/one.mp3"/></item></channel></rss>"#.utf8))
        let feed = try RSSParser.parse(data)
        #expect(feed.title == "T")
        #expect(feed.episodes.map(\.title) == ["One"])
        #expect(feed.episodes.first?.enclosure?.url.absoluteString == "http://a.example/one.mp3")
    }

    @Test func opmlReadsOnPastInvalidAttributeNames() throws {
        var data = Data(#"<opml version="2.0"><body><outline x"#.utf8)
        data.append(0xFF)
        data.append(Data(#"y="1" text="Cast" xmlUrl="https://podcast.example/feed.xml"/></body></opml>"#.utf8))
        let subscriptions = try OPMLParser.parse(data)
        #expect(subscriptions == [OPMLSubscription(title: "Cast", feedURL: URL(string: "https://podcast.example/feed.xml")!)])
    }

    @Test func declaredLatin1IsStillConvertedByTheXMLParser() throws {
        var data = Data(#"<?xml version="1.0" encoding="ISO-8859-1"?><rss version="2.0"><channel><title>Caf"#.utf8)
        data.append(0xE9)
        data.append(Data("</title></channel></rss>".utf8))
        #expect(try RSSParser.parse(data).title == "Café")
    }

    @Test func opmlProcessingInstructionWithoutDataIsATypedError() throws {
        let crash = try #require(Data(base64Encoded: "PD88P3htbD8+CjyDbw=="))  // `<?<?xml?>` then a stray byte
        #expect(opmlCode(crash) == .invalidFeed)
    }

    @Test func processingInstructionsWithoutDataAreSkipped() throws {
        let rss = Data(#"<?xml version="1.0"?><?pi?><rss version="2.0"><?pi?><channel><title>T</title><?x?></channel></rss>"#.utf8)
        #expect(try RSSParser.parse(rss).title == "T")
        let opml = Data(#"<opml version="2.0"><?pi?><body><outline text="Cast" xmlUrl="https://podcast.example/feed.xml"/></body></opml>"#.utf8)
        #expect(try OPMLParser.parse(opml).map(\.title) == ["Cast"])
    }

    @Test(arguments: [
        #"<!ATTLIST rss a CDATA #IMPLIED>"#, #"<!NOTATION n SYSTEM "x">"#, #"<!NOTATION n PUBLIC "p">"#,
        #"<!NOTATION n SYSTEM "x"><!ENTITY u SYSTEM "x" NDATA n>"#, #"<!ENTITY % p "<!ATTLIST rss a CDATA #IMPLIED>"> %p;"#,
        #"<!-- ] --><!ATTLIST rss a CDATA "]">"#,
    ])
    func internalSubsetDeclarationsAreIgnored(declarations: String) throws {
        let rss = Data(#"<!DOCTYPE rss [\#(declarations)]><rss version="2.0"><channel><title>T</title></channel></rss>"#.utf8)
        #expect(try RSSParser.parse(rss).title == "T")
        let opml = Data(#"<!DOCTYPE opml [\#(declarations)]><opml version="2.0"><body/></opml>"#.utf8)
        #expect(try OPMLParser.parse(opml) == [])
    }

    @Test func unclosedInternalSubsetIsInvalidFeed() {
        #expect(rssCode(Data(#"<!DOCTYPE rss [<!ATTLIST rss a CDATA #IMPLIED><rss version="2.0"></rss>"#.utf8)) == .invalidFeed)
    }
}
