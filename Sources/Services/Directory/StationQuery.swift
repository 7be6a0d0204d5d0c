import Foundation

/// A search of the station directory: words of the name, a tag, a country (a two-letter code or
/// a name), a language, and the order of the answer. Every criterion is optional; an empty query
/// lists the most voted stations.
package struct StationQuery: Sendable, Hashable, Codable {
    package enum Order: String, Sendable, Hashable, Codable, CaseIterable {
        case votes
        /// How often listeners started the station through the directory.
        case clicks
    }

    package var name: String?
    package var tag: String?
    package var country: String?
    package var language: String?
    package var order: Order
    package var limit: Int

    package init(name: String? = nil, tag: String? = nil, country: String? = nil, language: String? = nil, order: Order = .votes, limit: Int = 50) {
        self.name = Self.clean(name)
        self.tag = Self.clean(tag)
        self.country = Self.clean(country)
        self.language = Self.clean(language)
        self.order = order
        self.limit = max(1, min(limit, 500))
    }

    /// The query string of `/json/stations/search`, in a fixed order (it is also the cache key).
    /// Stations whose last check failed are left out (`hidebroken`), the best first (`reverse`).
    var queryItems: [URLQueryItem] {
        var items: [URLQueryItem] = []
        if let name { items.append(URLQueryItem(name: "name", value: name)) }
        if let tag { items.append(URLQueryItem(name: "tag", value: tag)) }
        if let country {
            let isCode = country.count == 2 && country.allSatisfy(\.isLetter)
            items.append(URLQueryItem(name: isCode ? "countrycode" : "country", value: isCode ? country.uppercased() : country))
        }
        if let language { items.append(URLQueryItem(name: "language", value: language.lowercased())) }
        items.append(URLQueryItem(name: "order", value: order == .votes ? "votes" : "clickcount"))
        items.append(URLQueryItem(name: "reverse", value: "true"))
        items.append(URLQueryItem(name: "hidebroken", value: "true"))
        items.append(URLQueryItem(name: "limit", value: String(limit)))
        return items
    }

    private static func clean(_ text: String?) -> String? {
        guard let text else { return nil }
        let trimmed = String(text.trimmingCharacters(in: .whitespacesAndNewlines).prefix(100))
        return trimmed.isEmpty ? nil : trimmed
    }

    /// What a listener types into the terminal's directory prompt: words of the name, and
    /// `tag:`, `country:` and `language:` words for those criteria (`jazz country:DE`);
    /// `order:clicks` orders by clicks.
    package static func parse(_ text: String, limit: Int = 100) -> StationQuery {
        var name: [Substring] = []
        var criteria: [String: String] = [:]
        for word in text.split(whereSeparator: \.isWhitespace) {
            let parts = word.split(separator: ":", maxSplits: 1)
            if parts.count == 2, ["tag", "country", "language", "order"].contains(parts[0].lowercased()) {
                criteria[parts[0].lowercased()] = String(parts[1])
            } else {
                name.append(word)
            }
        }
        return StationQuery(
            name: name.joined(separator: " "), tag: criteria["tag"], country: criteria["country"], language: criteria["language"],
            order: criteria["order"]?.lowercased() == "clicks" ? .clicks : .votes, limit: limit)
    }
}
