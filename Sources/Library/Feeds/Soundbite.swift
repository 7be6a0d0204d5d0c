import Foundation
import PlayerCore

/// A moment of an episode its feed points at (`podcast:soundbite`): a short clip to hear before
/// listening to the whole, played from `start` for `duration`.
package struct Soundbite: Sendable, Equatable, Codable {
    /// The most kept per episode.
    package static let maxPerEpisode = 16
    /// The longest clip kept, seconds: the namespace suggests 15-120 s; a longer one is no
    /// soundbite but the episode.
    package static let maxDuration: TimeInterval = 600

    /// Seconds into the episode.
    package var start: TimeInterval
    /// Seconds.
    package var duration: TimeInterval
    /// What the feed calls it; nil when it gives nothing (the episode's title is then used).
    package var title: String?

    package init(start: TimeInterval, duration: TimeInterval, title: String? = nil) {
        self.start = start
        self.duration = duration
        self.title = title
    }

    /// The soundbites named, usable ones only (a start of 0 or more, a length above 0 and at most
    /// `maxDuration`, both plain decimal seconds), each start once, at most `maxPerEpisode`.
    static func list(_ raw: [RSSDocumentReader.RawSoundbite]) -> [Soundbite] {
        var kept: [Soundbite] = []
        for entry in raw where kept.count < maxPerEpisode {
            guard let start = seconds(entry.start), let duration = seconds(entry.duration), duration > 0, duration <= maxDuration,
                !kept.contains(where: { $0.start == start })
            else { continue }
            kept.append(Soundbite(start: start, duration: duration, title: FeedText.line(entry.title)))
        }
        return kept
    }

    private static func seconds(_ text: String?) -> TimeInterval? {
        guard let trimmed = text?.trimmingWhitespace(), !trimmed.isEmpty,
            trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let value = Double(trimmed), value.isFinite,
            value <= ITunesDuration.maxSeconds
        else { return nil }
        return value
    }
}
