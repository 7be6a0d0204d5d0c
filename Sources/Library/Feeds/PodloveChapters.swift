import Foundation
import PlayerCore

/// Podlove Simple Chapters (`<psc:chapters>` inside an item): chapters written into the feed
/// itself, each `<psc:chapter start="01:02:03.500" title="…">`. Another source beside a file's own
/// chapters and the JSON chapters document (which the player prefers when both are named).
enum PodloveChapters {
    /// The chapters named with a readable start, sorted by start, at most `ChapterList.maxCount`;
    /// titles cleaned (a chapter without one keeps none).
    static func chapters(_ raw: [(start: String?, title: String?)]) -> [Chapter] {
        let read = raw.compactMap { entry -> Chapter? in
            guard let start = entry.start.flatMap(seconds) else { return nil }
            return Chapter(start: start, title: FeedText.line(entry.title))
        }
        let sorted = read.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        return Array(sorted.prefix(ChapterList.maxCount))
    }

    /// A start in Normal Play Time, as the format says: `HH:MM:SS`, `MM:SS` or seconds, the last
    /// part with an optional fraction (`01:02:03.500`, `62.5`). 0 is a start (unlike a duration);
    /// later parts must be below 60; at most `ITunesDuration.maxSeconds`.
    static func seconds(_ text: String) -> TimeInterval? {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty, trimmed.utf8.count <= 32 else { return nil }
        let parts = trimmed.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 3 else { return nil }
        var total: TimeInterval = 0
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && ($0.isNumber || (isLast && $0 == ".")) }),
                part.filter({ $0 == "." }).count <= 1, part.first != ".", part.last != ".", let value = Double(part)
            else { return nil }
            if index > 0, value >= 60 { return nil }
            total = total * 60 + value
        }
        guard total.isFinite, total <= ITunesDuration.maxSeconds else { return nil }
        return total
    }
}
