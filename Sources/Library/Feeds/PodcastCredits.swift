import Foundation
import PlayerCore

/// A person a feed names (`podcast:person`): for the whole show (its hosts) or for one episode
/// (its guests too). Kept as the feed gives them, cleaned, for the episode list and `--json`.
package struct FeedPerson: Sendable, Equatable, Codable {
    /// The most people kept per show or episode: a panel is a dozen; a feed could name thousands.
    package static let maxPerList = 24
    /// The longest name kept, characters.
    package static let maxNameLength = 128

    package var name: String
    /// The role in the Podcast Taxonomy Project's words, lowercased (`host`, `guest`, `editor`…);
    /// `host` when the feed names none, as the namespace says.
    package var role: String
    /// The person's page, when http(s).
    package var link: URL?
    /// The person's picture, when http(s).
    package var image: URL?

    package init(name: String, role: String = "host", link: URL? = nil, image: URL? = nil) {
        self.name = name
        self.role = role
        self.link = link
        self.image = image
    }
}

/// A way to support a show (`podcast:funding`, the namespace's most adopted tag): an http(s)
/// address and what the feed calls it. Shown with the podcast; never opened unless asked.
package struct FundingLink: Sendable, Equatable, Codable {
    /// The most kept per show.
    package static let maxPerShow = 8

    package var url: URL
    /// The feed's words for it ("Support the show on Patreon"), nil when it gives none.
    package var title: String?

    package init(url: URL, title: String? = nil) {
        self.url = url
        self.title = title
    }
}

/// Reading the namespace's and iTunes' numbering and credits from raw feed text.
enum PodcastCredits {
    /// `podcast:season` (else `itunes:season`): a positive whole number, at most 100,000.
    static func season(_ podcast: String?, itunes: String?) -> Int? {
        for text in [podcast, itunes] {
            guard let text, let value = Int(text.trimmingWhitespace()) else { continue }
            if value > 0, value <= 100_000 { return value }
        }
        return nil
    }

    /// `podcast:episode` (else `itunes:episode`): positive, possibly a decimal (the namespace
    /// allows `315.5` for a bonus between two episodes), at most a million.
    static func episodeNumber(_ podcast: String?, itunes: String?) -> Double? {
        for text in [podcast, itunes] {
            guard let text else { continue }
            let trimmed = text.trimmingWhitespace()
            guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let value = Double(trimmed) else { continue }
            if value > 0, value <= 1_000_000 { return value }
        }
        return nil
    }

    /// The people named, cleaned: a name is needed; a link or picture must be http(s); at most
    /// `FeedPerson.maxPerList`, the same name and role once.
    static func persons(_ raw: [RSSDocumentReader.Person], feedURL: URL?) -> [FeedPerson] {
        var people: [FeedPerson] = []
        for person in raw where people.count < FeedPerson.maxPerList {
            guard let name = FeedText.line(person.name, maxLength: FeedPerson.maxNameLength) else { continue }
            let role = FeedText.line(person.role, maxLength: 40)?.lowercased() ?? "host"
            guard !people.contains(where: { $0.name == name && $0.role == role }) else { continue }
            people.append(
                FeedPerson(
                    name: name, role: role, link: person.href.flatMap { FeedURL.resolve($0, against: feedURL) },
                    image: person.image.flatMap { FeedURL.resolve($0, against: feedURL) }))
        }
        return people
    }

    /// The support links named, http(s) only, each address once, at most `FundingLink.maxPerShow`.
    static func funding(_ raw: [(url: String?, text: String?)], feedURL: URL?) -> [FundingLink] {
        var links: [FundingLink] = []
        for entry in raw where links.count < FundingLink.maxPerShow {
            guard let url = entry.url.flatMap({ FeedURL.resolve($0, against: feedURL) }), !links.contains(where: { $0.url == url }) else { continue }
            links.append(FundingLink(url: url, title: FeedText.line(entry.text, maxLength: 128)))
        }
        return links
    }
}
