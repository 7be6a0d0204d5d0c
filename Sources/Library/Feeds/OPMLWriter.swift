import Foundation
import PlayerCore

/// Writes subscriptions as an OPML 2.0 file that other podcast apps import, and that
/// `OPMLParser` reads back to the same subscriptions.
///
/// Every title is cleaned as `OPMLParser` cleans it (`TextSanitizer.singleLine`: control and bidi
/// characters dropped, whitespace folded), then XML-escaped, so whatever a feed put in its title
/// cannot break the file or smuggle markup into it. A subscription without a title gets an empty
/// `text` (OPML asks for the attribute) and no `title`, which reads back as no title.
package enum OPMLWriter {
    package static func write(_ subscriptions: [OPMLSubscription], title: String, dateCreated: Date) -> Data {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<opml version=\"2.0\">\n"
        xml += "  <head>\n"
        xml += "    <title>\(XMLEscaping.escape(TextSanitizer.singleLine(title)))</title>\n"
        xml += "    <dateCreated>\(FeedDate.rfc822String(from: dateCreated))</dateCreated>\n"
        xml += "  </head>\n"
        xml += "  <body>\n"
        for subscription in subscriptions {
            let name = subscription.title.map { TextSanitizer.singleLine($0) } ?? ""
            xml += "    <outline type=\"rss\" text=\"\(XMLEscaping.escape(name))\""
            if !name.isEmpty { xml += " title=\"\(XMLEscaping.escape(name))\"" }
            xml += " xmlUrl=\"\(XMLEscaping.escape(subscription.feedURL.absoluteString))\"/>\n"
        }
        xml += "  </body>\n"
        xml += "</opml>\n"
        return Data(xml.utf8)
    }
}
