import Foundation
import PlayerCore

/// A station as the radio-browser directory describes it, cleaned where it enters: every text is
/// sanitised to one capped line and every address must be an absolute http(s) URL, exactly as for
/// status documents and playlists. A station whose stream address fails that check is dropped
/// from the results rather than shown unplayable.
package struct DirectoryStation: Codable, Sendable, Equatable, Hashable {
    /// The directory's id (`stationuuid`), used to count a click when the station is played.
    package let id: String
    package let name: String
    /// `url_resolved` (playlists already followed) when valid, else `url`.
    package let streamURL: URL
    package let homepage: URL?
    package let favicon: URL?
    package let tags: [String]
    package let country: String?
    /// ISO 3166-1 alpha-2, upper case.
    package let countryCode: String?
    package let languages: [String]
    package let codec: String?
    /// kbit/s; nil when the directory says 0 (unknown).
    package let bitrate: Int?
    package let votes: Int
    package let clicks: Int
    /// The stream is HLS (`hls: 1`).
    package let isHLS: Bool
    /// The directory's last check of the stream succeeded.
    package let lastCheckOK: Bool

    package init(
        id: String, name: String, streamURL: URL, homepage: URL? = nil, favicon: URL? = nil, tags: [String] = [],
        country: String? = nil, countryCode: String? = nil, languages: [String] = [], codec: String? = nil,
        bitrate: Int? = nil, votes: Int = 0, clicks: Int = 0, isHLS: Bool = false, lastCheckOK: Bool = true
    ) {
        self.id = id
        self.name = name
        self.streamURL = streamURL
        self.homepage = homepage
        self.favicon = favicon
        self.tags = tags
        self.country = country
        self.countryCode = countryCode
        self.languages = languages
        self.codec = codec
        self.bitrate = bitrate
        self.votes = votes
        self.clicks = clicks
        self.isHLS = isHLS
        self.lastCheckOK = lastCheckOK
    }

    /// One line for a list: codec and bitrate, country, the first tags.
    package var summary: String {
        var parts: [String] = []
        if let codec { parts.append(bitrate.map { "\(codec) \($0)k" } ?? codec) }
        if let countryCode { parts.append(countryCode) }
        if !tags.isEmpty { parts.append(tags.prefix(3).joined(separator: ", ")) }
        return parts.joined(separator: " · ")
    }
}

extension DirectoryStation {
    /// The station through the entry checks once more, as if the directory had just sent it.
    var checkedAgain: DirectoryStation? {
        DirectoryStationJSON(
            stationuuid: id, name: name, url: streamURL.absoluteString, url_resolved: nil, homepage: homepage?.absoluteString,
            favicon: favicon?.absoluteString, tags: tags.joined(separator: ","), country: country, countrycode: countryCode,
            language: languages.joined(separator: ","), codec: codec, bitrate: bitrate, votes: votes, clickcount: clicks,
            hls: isHLS ? 1 : 0, lastcheckok: lastCheckOK ? 1 : 0
        ).station
    }
}

/// The directory's JSON for one station, as documented (api.radio-browser.info): only the fields
/// Tonearm uses, every one optional and decoded leniently, so one odd entry never fails a search.
struct DirectoryStationJSON: Decodable, Sendable {
    var stationuuid: String?
    var name: String?
    var url: String?
    var url_resolved: String?
    var homepage: String?
    var favicon: String?
    var tags: String?
    var country: String?
    var countrycode: String?
    var language: String?
    var codec: String?
    var bitrate: Int?
    var votes: Int?
    var clickcount: Int?
    var hls: Int?
    var lastcheckok: Int?

    /// The cleaned station, or nil when it has no id, no name or no usable stream address.
    var station: DirectoryStation? {
        guard let id = stationuuid.flatMap(Self.identifier), let name = MetadataText.line(name),
            let stream = MetadataText.httpURL(url_resolved) ?? MetadataText.httpURL(url)
        else { return nil }
        let code = MetadataText.line(countrycode).map { $0.uppercased() }
        return DirectoryStation(
            id: id, name: name, streamURL: stream, homepage: MetadataText.httpURL(homepage), favicon: MetadataText.httpURL(favicon),
            tags: Self.list(tags), country: MetadataText.line(country),
            countryCode: code.flatMap { $0.count == 2 && $0.allSatisfy(\.isLetter) ? $0 : nil },
            languages: Self.list(language), codec: MetadataText.line(codec).map { String($0.prefix(16)) },
            bitrate: bitrate.flatMap { $0 > 0 && $0 < 10_000 ? $0 : nil },
            votes: max(0, votes ?? 0), clicks: max(0, clickcount ?? 0), isHLS: hls == 1, lastCheckOK: lastcheckok != 0)
    }

    /// A comma-separated list, each item a clean line; at most 10 items.
    static func list(_ text: String?) -> [String] {
        guard let text else { return [] }
        return text.split(separator: ",").compactMap { MetadataText.line(String($0)) }.filter { !$0.isEmpty }.prefix(10).map { String($0.prefix(40)) }
    }

    /// A station id goes into a URL path: only the characters of a UUID are accepted.
    static func identifier(_ text: String) -> String? {
        let allowed = Set("0123456789abcdefABCDEF-")
        guard (8...64).contains(text.count), text.allSatisfy(allowed.contains) else { return nil }
        return text.lowercased()
    }
}
