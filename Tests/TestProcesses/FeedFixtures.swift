import Foundation

/// Podcast feed and OPML documents in the shapes real servers send, for every test target (the
/// feed parser's tests, the store's, the CLI's). Plain `Data`/`String`: this target must not
/// depend on `Library`.
///
/// Enclosures point at `enclosureBase` so a test can aim them at its own local HTTP server
/// (`TestHTTPServer`), e.g. `enclosureBase/episode-1.mp3`.
package enum FeedFixtures {
    package static let itunesNamespace = "http://www.itunes.com/dtds/podcast-1.0.dtd"
    package static let podcastNamespace = "https://podcastindex.org/namespace/1.0"
    package static let contentNamespace = "http://purl.org/rss/1.0/modules/content/"
    package static let atomNamespace = "http://www.w3.org/2005/Atom"

    /// The values `normalFeed` writes, so tests compare against them rather than retyping them.
    package enum Normal {
        package static let title = "The Tonearm Test Show"
        package static let author = "Tonearm Test Crew"
        package static let link = "https://example.com/show"
        package static let imageURL = "https://example.com/art.jpg"
        package static let episodeLength: Int64 = 1_234_567
        package static let episodeType = "audio/mpeg"
        package static func episodeTitle(_ number: Int) -> String { "Episode \(number): Sound & Fury" }
        package static func guid(_ number: Int) -> String { "tonearm-test-episode-\(number)" }
        package static func enclosureName(_ number: Int) -> String { "episode-\(number).mp3" }
        package static func chaptersName(_ number: Int) -> String { "chapters-\(number).json" }
        /// Episode `n` is `n` days before 2024-03-01 10:00:00 UTC; durations are `n` minutes `n` seconds.
        package static let firstDate = Date(timeIntervalSince1970: 1_709_287_200)
        package static func date(_ number: Int) -> Date { firstDate.addingTimeInterval(-Double(number) * 86_400) }
        package static func durationSeconds(_ number: Int) -> Double { Double(number * 60 + number) }
    }

    // MARK: - Feeds

    /// A well-formed podcast feed with `itunes:`, `podcast:` and `content:` namespaces, an
    /// `atom:link` self link, HTML show notes, and `episodeCount` items (numbered from 1, newest
    /// first) whose enclosures are `enclosureBase/episode-N.mp3`. `podcastPrefix` is the prefix
    /// bound to the Podcasting 2.0 namespace (feeds use others than `podcast`).
    package static func normalFeed(enclosureBase: URL, episodeCount: Int = 3, podcastPrefix: String = "podcast") -> Data {
        var items = ""
        let formatter = rfc822Formatter()
        for number in 1...max(1, episodeCount) {
            let date = formatter.string(from: Normal.date(number))
            let duration = "\(twoDigits(number)):\(twoDigits(number))"
            items += """
                <item>
                  <title>\(escape(Normal.episodeTitle(number)))</title>
                  <guid isPermaLink="false">\(Normal.guid(number))</guid>
                  <pubDate>\(date)</pubDate>
                  <description><![CDATA[<p>Notes for <b>episode \(number)</b>.</p><p>Second paragraph &amp; more.</p>]]></description>
                  <itunes:duration>\(duration)</itunes:duration>
                  <itunes:episodeType>full</itunes:episodeType>
                  <enclosure url="\(escape(url(enclosureBase, Normal.enclosureName(number))))" length="\(Normal.episodeLength)" type="\(Normal.episodeType)"/>
                  <\(podcastPrefix):chapters url="\(escape(url(enclosureBase, Normal.chaptersName(number))))" type="application/json+chapters"/>
                </item>

                """
        }
        return Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="\(itunesNamespace)" xmlns:\(podcastPrefix)="\(podcastNamespace)" xmlns:content="\(contentNamespace)" xmlns:atom="\(atomNamespace)">
              <channel>
                <atom:link href="https://feeds.example.com/self.xml" rel="self" type="application/rss+xml"/>
                <title>\(escape(Normal.title))</title>
                <link>\(Normal.link)</link>
                <language>en</language>
                <description>&lt;p&gt;A show about &lt;i&gt;testing&lt;/i&gt; audio players.&lt;/p&gt;</description>
                <itunes:author>\(Normal.author)</itunes:author>
                <managingEditor>editor@example.com (Someone Else)</managingEditor>
                <itunes:image href="\(Normal.imageURL)"/>
                <image><url>https://example.com/fallback.jpg</url><title>x</title><link>https://example.com</link></image>
                <itunes:category text="Technology"/>
            \(items)  </channel>
            </rss>

            """.utf8)
    }

    /// `count` minimal items (guid, title, date, duration, enclosure): the size of a big real feed.
    package static func largeFeed(count: Int, enclosureBase: URL) -> Data {
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="\(itunesNamespace)">
            <channel><title>Large Feed</title><description>Many episodes.</description>

            """
        xml.reserveCapacity(count * 480)
        let base = escape(url(enclosureBase, "large-"))
        let formatter = rfc822Formatter()
        for number in 1...max(1, count) {
            let date = formatter.string(from: Normal.firstDate.addingTimeInterval(-Double(number) * 3600))
            xml += "<item><title>Episode \(number)</title><guid>large-\(number)</guid><pubDate>\(date)</pubDate>"
            xml += "<description>Show notes for episode \(number) with &lt;b&gt;some&lt;/b&gt; markup.</description>"
            xml += "<itunes:duration>\(number % 3600)</itunes:duration>"
            xml += "<enclosure url=\"\(base)\(number).mp3\" length=\"\(number * 1000)\" type=\"audio/mpeg\"/></item>\n"
        }
        xml += "</channel></rss>\n"
        return Data(xml.utf8)
    }

    /// Four items: no enclosure at all; a `file:` enclosure; a `javascript:` enclosure; an
    /// enclosure whose URL is garbage. None has usable audio.
    package static func missingEnclosureFeed() -> Data {
        feed(items: [
            item(title: "No enclosure", guid: "none"),
            item(title: "File enclosure", guid: "file", extra: #"<enclosure url="file:///etc/passwd" length="10" type="audio/mpeg"/>"#),
            item(title: "Script enclosure", guid: "script", extra: #"<enclosure url="javascript:alert(1)" type="audio/mpeg"/>"#),
            item(title: "Garbage enclosure", guid: "garbage", extra: #"<enclosure url="ht!tp:://" type="audio/mpeg"/>"#),
        ])
    }

    /// Enclosures given relative to the feed's own address: `media/rel-1.mp3`, `/abs/rel-2.mp3`,
    /// `//cdn.example.net/rel-3.mp3`; lengths `0`, `junk` and ` 42 `.
    package static func relativeEnclosureFeed() -> Data {
        feed(items: [
            item(title: "Relative", guid: "rel-1", extra: #"<enclosure url="media/rel-1.mp3" length="0" type="audio/mpeg"/>"#),
            item(title: "Root relative", guid: "rel-2", extra: #"<enclosure url="/abs/rel-2.mp3" length="junk" type="audio/mpeg"/>"#),
            item(title: "Scheme relative", guid: "rel-3", extra: #"<enclosure url="//cdn.example.net/rel-3.mp3" length=" 42 " type="Audio/MPEG"/>"#),
        ])
    }

    /// `itunes:duration` texts and the seconds they mean (nil: refused), one item each, guid `d<index>`.
    package static let durationForms: [(text: String, seconds: Double?)] = [
        ("3600", 3600), ("3600.5", 3600.5), ("59:30", 3570), ("1:02:03", 3723), ("01:02:03", 3723), (" 1:2:3 ", 3723),
        ("75:30", 4530), ("-5", nil), ("abc", nil), ("10:61", nil), ("1:75:00", nil), ("", nil), ("9999999", nil),
    ]

    /// One item per `durationForms` entry.
    package static func durationsFeed() -> Data {
        feed(items: durationForms.enumerated().map { index, form in
            item(title: "Duration \(index)", guid: "d\(index)", extra: "<itunes:duration>\(escape(form.text))</itunes:duration>")
        })
    }

    /// `pubDate` texts as feeds write them; the feed gives one item per text, guid `date<index>`.
    package static let dateForms: [String] = [
        "Tue, 10 Jun 2003 04:00:00 GMT", "10 Jun 2003 04:00:00 GMT", "Mon, 10 Jun 2003 04:00:00 GMT",
        "Tue, 10 Jun 2003 00:00:00 -0400", "Tue, 10 Jun 2003 04:00 GMT", "Tuesday, 10 June 2003 04:00:00 GMT",
        "Tue, 10 Jun 03 04:00:00 GMT", "Tue,  10   Jun 2003   04:00:00   GMT", "Tue, 10 Jun 2003 00:00:00 EDT",
        "2003-06-10T04:00:00Z", "not a date", "Tue, 31 Feb 2003 04:00:00 GMT", "",
    ]

    /// One item per `dateForms` entry.
    package static func datesFeed() -> Data {
        feed(items: dateForms.enumerated().map { index, text in
            item(title: "Date \(index)", guid: "date\(index)", extra: "<pubDate>\(escape(text))</pubDate>")
        })
    }

    /// Two items share guid `same`; the first is titled `First`, the second `Second`.
    package static func duplicateGUIDFeed() -> Data {
        feed(items: [item(title: "First", guid: "same"), item(title: "Middle", guid: "other"), item(title: "Second", guid: "same")])
    }

    /// Declared `ISO-8859-1`, written in Latin-1 bytes; titles `latin1Title` and `latin1EpisodeTitle`.
    package static let latin1Title = "Café Crème à la française"
    package static let latin1EpisodeTitle = "Größe, Übung und Ñandú"
    package static func latin1Feed() -> Data {
        let xml = """
            <?xml version="1.0" encoding="ISO-8859-1"?>
            <rss version="2.0"><channel><title>\(latin1Title)</title>
            <item><title>\(latin1EpisodeTitle)</title><guid>l1</guid></item>
            </channel></rss>
            """
        return Data(xml.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })
    }

    /// Declared `windows-1251`, written in Windows-1251 bytes; titles `cyrillicTitle` and `cyrillicEpisodeTitle`.
    package static let cyrillicTitle = "Подкаст о музыке и звуке"
    package static let cyrillicEpisodeTitle = "Выпуск первый: Ёлки и ёжики"
    package static func windows1251Feed() -> Data {
        let xml = """
            <?xml version="1.0" encoding="windows-1251"?>
            <rss version="2.0"><channel><title>\(cyrillicTitle)</title>
            <item><title>\(cyrillicEpisodeTitle)</title><guid>c1</guid></item>
            </channel></rss>
            """
        return Data(xml.unicodeScalars.map(windows1251Byte))
    }

    /// A web page where a feed was expected (a login wall, an error page).
    package static func htmlPage() -> Data {
        Data(
            """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>Sign in</title></head>
            <body><p>Please sign in to continue.</p></body></html>
            """.utf8)
    }

    /// Bytes that are not XML at all (the start of an MP3 file, then text).
    package static func garbage() -> Data {
        Data([0x49, 0x44, 0x33, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x21, 0xFF, 0xFB, 0x90, 0x64] + Array("not xml {at all}".utf8))
    }

    /// An Atom feed (refused: Tonearm reads podcasts from RSS 2.0).
    package static func atomFeed() -> Data {
        Data(
            """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="\(atomNamespace)"><title>Atom</title>
            <entry><title>One</title><id>urn:1</id><link rel="enclosure" href="https://example.com/1.mp3"/></entry></feed>
            """.utf8)
    }

    /// Titles a hostile or broken feed may carry: terminal escape sequences (colour, OSC 52
    /// clipboard write), a C1 control, a bidi override, 4,000 characters, a path.
    package static let hostileTitles: [String] = [
        "\u{1B}[31mRed\u{1B}[0m alert",
        "Copy \u{1B}]52;c;ZWNobyBwd25lZA==\u{07}me",
        "C1\u{9D}control",
        "Bidi \u{202E}txt.exe\u{202C} trick",
        String(repeating: "Long title ", count: 364) + "end",
        "../../etc/passwd",
    ]

    /// A feed whose channel title and only item's title (and summary) are `title`, written raw
    /// (markup escaped, control characters as they are), as a hostile server would send it.
    package static func hostileTitleFeed(title: String, enclosureBase: URL) -> Data {
        feed(
            title: title,
            items: [
                item(
                    title: title, guid: "hostile",
                    extra: "<description>\(escape(title))</description><enclosure url=\"\(escape(url(enclosureBase, "hostile.mp3")))\" type=\"audio/mpeg\"/>")
            ])
    }

    // MARK: - OPML

    /// The feeds `nestedOPML` names, in document order, with their titles; duplicates and
    /// refused URLs are not in this list.
    package static func nestedOPMLExpected(feedBase: URL) -> [(title: String?, url: String)] {
        [
            ("Top Level Show", url(feedBase, "top.xml")),
            ("News One", url(feedBase, "news1.xml")),
            ("Deep Cut", url(feedBase, "deep.xml")),
            ("Text Only", url(feedBase, "text-only.xml")),
            (nil, url(feedBase, "untitled.xml")),
        ]
    }

    /// OPML 2.0 with folders nested two deep, a duplicate feed (also with an upper-case host when
    /// the base URL's host has letters), `xmlurl`/`XMLURL` spellings, a `javascript:` and a
    /// `file:` feed, a folder without `xmlUrl`, and an outline with only `text`.
    package static func nestedOPML(feedBase: URL) -> Data {
        let upperHost = url(feedBase, "top.xml").replacingOccurrences(of: feedBase.host ?? "", with: (feedBase.host ?? "").uppercased())
        return Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="2.0">
              <head><title>My Podcasts</title></head>
              <body>
                <outline type="rss" text="Top Level Show" title="Top Level Show" xmlUrl="\(escape(url(feedBase, "top.xml")))"/>
                <outline text="News">
                  <outline type="rss" text="ignored text" title="News One" xmlurl="\(escape(url(feedBase, "news1.xml")))"/>
                  <outline text="Deeper">
                    <outline type="rss" title="Deep Cut" XMLURL="\(escape(url(feedBase, "deep.xml")))"/>
                    <outline type="rss" title="Duplicate of top" xmlUrl="\(escape(url(feedBase, "top.xml")))"/>
                  </outline>
                </outline>
                <outline type="rss" title="Upper-case host duplicate" xmlUrl="\(escape(upperHost))"/>
                <outline type="rss" title="Script" xmlUrl="javascript:alert(1)"/>
                <outline type="rss" title="Local file" xmlUrl="file:///etc/passwd"/>
                <outline type="rss" text="Text Only" xmlUrl="\(escape(url(feedBase, "text-only.xml")))"/>
                <outline type="rss" text="  " xmlUrl="\(escape(url(feedBase, "untitled.xml")))"/>
              </body>
            </opml>
            """.utf8)
    }

    // MARK: - Building blocks

    /// A minimal RSS 2.0 document with the iTunes namespace and the given items.
    package static func feed(title: String = "Fixture Feed", items: [String]) -> Data {
        Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="\(itunesNamespace)" xmlns:podcast="\(podcastNamespace)">
            <channel><title>\(escape(title))</title>
            \(items.joined(separator: "\n"))
            </channel></rss>
            """.utf8)
    }

    /// One `<item>` with a title, a guid and any extra elements.
    package static func item(title: String, guid: String, extra: String = "") -> String {
        "<item><title>\(escape(title))</title><guid>\(escape(guid))</guid>\(extra)</item>"
    }

    /// `&`, `<`, `>` and `"` escaped; everything else (control characters included) left as it is.
    package static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// `base` joined with `name` (one slash between them).
    package static func url(_ base: URL, _ name: String) -> String {
        let text = base.absoluteString
        return text.hasSuffix("/") ? text + name : text + "/" + name
    }

    /// `Tue, 10 Jun 2003 04:00:00 GMT` for `date`, with a fixed English locale and UTC.
    package static func rfc822(_ date: Date) -> String { rfc822Formatter().string(from: date) }

    private static func rfc822Formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// Windows-1251 for ASCII and the Russian alphabet (all these fixtures need).
    private static func windows1251Byte(_ scalar: Unicode.Scalar) -> UInt8 {
        switch scalar.value {
        case 0..<0x80: return UInt8(scalar.value)
        case 0x0410...0x044F: return UInt8(scalar.value - 0x0410 + 0xC0)
        case 0x0401: return 0xA8  // Ё
        case 0x0451: return 0xB8  // ё
        default: return UInt8(ascii: "?")
        }
    }
}
