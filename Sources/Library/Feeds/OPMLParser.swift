import Foundation
import PlayerCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads the podcast subscriptions of an OPML file (what every podcast app exports).
///
/// Decisions (each tested):
/// - Every `<outline>` with an `xmlUrl` counts, at any depth: apps nest subscriptions in
///   folders, and the folders themselves have no `xmlUrl`. Attribute names are matched without
///   regard to case (`xmlUrl`, `xmlurl`, `XMLURL` all occur).
/// - The title is `title`, else `text`; sanitised, nil when blank.
/// - Only http(s) feed URLs; the first of duplicate URLs wins (scheme and host compared without
///   case); document order is kept; at most `LibraryLimits.maxOPMLSubscriptions`.
/// - Not OPML (no `<opml>` root, not XML at all) is `.invalidFeed`: for the user it is the same
///   failure as a feed address that leads nowhere, and its text says "not a podcast feed". An
///   OPML file without any subscription is valid and gives an empty list.
/// - Like RSS, a file that breaks off keeps the outlines read before the break.
package enum OPMLParser {
    /// - Throws: `.documentTooLarge` over `LibraryLimits.maxOPMLBytes`; `.wrongContentType` for an
    ///   HTML page; `.invalidFeed` for anything that is not OPML.
    package static func parse(_ data: Data) throws(PlaybackError) -> [OPMLSubscription] {
        guard data.count <= LibraryLimits.maxOPMLBytes else {
            throw PlaybackError(.documentTooLarge, underlying: "OPML of \(data.count) bytes")
        }
        if XMLSniffer.looksLikeHTML(data) {
            throw PlaybackError(.wrongContentType, underlying: "an HTML page where OPML was expected")
        }
        let reader = OPMLDocumentReader()
        let parser = XMLParser(data: XMLInput.forXMLParser(data))
        parser.delegate = reader
        parser.shouldResolveExternalEntities = false
        parser.externalEntityResolvingPolicy = .never
        _ = parser.parse()
        switch reader.rootName {
        case "opml": return reader.subscriptions
        case "html": throw PlaybackError(.wrongContentType, underlying: "an XHTML page where OPML was expected")
        case nil: throw PlaybackError(.invalidFeed, underlying: "not an XML document")
        case let other?: throw PlaybackError(.invalidFeed, underlying: "XML whose root is <\(TextSanitizer.singleLine(other, maxLength: 40))>")
        }
    }
}

/// XMLParser's delegate for `OPMLParser`: collects outlines as they stream past.
final class OPMLDocumentReader: NSObject, XMLParserDelegate {
    private(set) var rootName: String?
    private(set) var subscriptions: [OPMLSubscription] = []
    private var seen: Set<String> = []

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
        attributes attributeDict: [String: String]
    ) {
        guard rootName != nil else {
            rootName = elementName.lowercased()
            if rootName != "opml" { parser.abortParsing() }
            return
        }
        guard elementName.lowercased() == "outline", subscriptions.count < LibraryLimits.maxOPMLSubscriptions else { return }
        var attributes: [String: String] = [:]
        for (key, value) in attributeDict { attributes[key.lowercased()] = attributes[key.lowercased()] ?? value }
        guard let rawURL = attributes["xmlurl"], let url = FeedURL.resolve(rawURL, against: nil) else { return }
        guard seen.insert(Self.identity(of: url)).inserted else { return }
        let title = FeedText.line(attributes["title"]) ?? FeedText.line(attributes["text"])
        subscriptions.append(OPMLSubscription(title: title, feedURL: url))
    }

    /// The URL with scheme and host lowercased: what makes two subscriptions the same feed.
    static func identity(of url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        return components.string ?? url.absoluteString
    }
}
