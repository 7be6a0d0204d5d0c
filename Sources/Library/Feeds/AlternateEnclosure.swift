import Foundation
import PlayerCore

/// Another file of the same episode its feed offers (`podcast:alternateEnclosure`): another
/// bitrate or format, with the places it can be fetched from (`podcast:source`, in the feed's
/// order) and, when given, the digest it must have (`podcast:integrity`, SRI).
package struct AlternateEnclosure: Sendable, Equatable, Codable {
    /// The most kept per episode, and sources per alternate.
    package static let maxPerEpisode = 8
    package static let maxSources = 8

    package var type: String
    package var length: Int64?
    /// Bits per second, as the feed says.
    package var bitrate: Double?
    package var title: String?
    /// The feed marks it as the same file as the item's enclosure.
    package var isDefault: Bool
    /// http(s) addresses only (others, such as ipfs: or magnet:, cannot be fetched here).
    package var sources: [URL]
    package var integrity: SubresourceIntegrity?

    package init(
        type: String, length: Int64? = nil, bitrate: Double? = nil, title: String? = nil, isDefault: Bool = false, sources: [URL],
        integrity: SubresourceIntegrity? = nil
    ) {
        self.type = type
        self.length = length
        self.bitrate = bitrate
        self.title = title
        self.isDefault = isDefault
        self.sources = sources
        self.integrity = integrity
    }

    /// The usable alternates: audio ones (`audio/…`) with at least one http(s) source, at most
    /// `maxPerEpisode`, each with at most `maxSources` sources, each address once.
    static func list(_ raw: [RSSDocumentReader.RawAlternate], feedURL: URL?) -> [AlternateEnclosure] {
        var kept: [AlternateEnclosure] = []
        for entry in raw where kept.count < maxPerEpisode {
            let type = (entry.type ?? "").trimmingWhitespace(newlines: false).lowercased()
            guard type.hasPrefix("audio/"), type.count <= LibraryLimits.maxMIMETypeLength else { continue }
            var sources: [URL] = []
            for address in entry.sources where sources.count < maxSources {
                guard let url = FeedURL.resolve(address, against: feedURL), !sources.contains(url) else { continue }
                sources.append(url)
            }
            guard !sources.isEmpty else { continue }
            let integrity = entry.integrity.first { ($0.type ?? "").lowercased() == "sri" }?.value.flatMap(SubresourceIntegrity.init)
            kept.append(
                AlternateEnclosure(
                    type: type, length: number(entry.length).map { Int64($0) }, bitrate: number(entry.bitrate),
                    title: FeedText.line(entry.title), isDefault: entry.isDefault?.lowercased() == "true", sources: sources,
                    integrity: integrity))
        }
        return kept
    }

    private static func number(_ text: String?) -> Double? {
        guard let trimmed = text?.trimmingWhitespace(newlines: false), let value = Double(trimmed), value.isFinite, value > 0,
            value < 1e15
        else { return nil }
        return value
    }
}

/// One place an episode's audio can be fetched from, and the digest it must have there.
package struct AudioSource: Sendable, Equatable {
    package var url: URL
    package var integrity: SubresourceIntegrity?

    package init(url: URL, integrity: SubresourceIntegrity? = nil) {
        self.url = url
        self.integrity = integrity
    }

    /// Where to fetch an episode from, in order: its enclosure, then its alternates (the one the
    /// feed marks default first, then the others as listed), each source of each; with
    /// `prefersLowBitrate`, the alternates from the lowest bitrate up come first, then the
    /// enclosure. The enclosure takes the default alternate's digest (it is the same file).
    /// Every address once; only http(s).
    package static func order(
        enclosure: URL?, alternates: [AlternateEnclosure], prefersLowBitrate: Bool
    ) -> [AudioSource] {
        let sameAsEnclosure = alternates.first { $0.isDefault }
        let main = enclosure.map { AudioSource(url: $0, integrity: sameAsEnclosure?.integrity) }
        let listed = alternates.filter(\.isDefault) + alternates.filter { !$0.isDefault }
        let alternatesInOrder =
            prefersLowBitrate
            ? listed.enumerated().sorted { ($0.element.bitrate ?? .infinity, $0.offset) < ($1.element.bitrate ?? .infinity, $1.offset) }.map(\.element)
            : listed
        let fromAlternates = alternatesInOrder.flatMap { alternate in alternate.sources.map { AudioSource(url: $0, integrity: alternate.integrity) } }
        let all = prefersLowBitrate ? fromAlternates + [main].compactMap { $0 } : [main].compactMap { $0 } + fromAlternates
        var seen = Set<URL>()
        return all.filter { ["http", "https"].contains($0.url.scheme?.lowercased() ?? "") && seen.insert($0.url).inserted }
    }
}
