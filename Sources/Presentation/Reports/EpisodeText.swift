import Foundation

/// An episode's columns in `tonearm podcast episodes`.
package enum EpisodeText {
    /// "no audio", "played", "at 12:34" (where the listener stopped) or "new".
    package static func status(hasAudio: Bool, played: Bool, position: TimeInterval) -> String {
        if !hasAudio { return "no audio" }
        if played { return "played" }
        if position > 0 { return "at \(clock(position))" }
        return "new"
    }

    /// Whether an episode plays without the network: "yes" when kept whole on disk, "45%" while
    /// its download is under way (or "…" before its length is known), "failed" when the last try
    /// failed, "-" when it was never downloaded.
    package static func offline(downloaded: Bool, downloading: Bool, failed: Bool, fraction: Double?) -> String {
        if downloaded { return "yes" }
        if downloading { return fraction.map { "\(Int($0 * 100))%" } ?? "…" }
        if failed { return "failed" }
        return "-"
    }

    /// "S2 E5", "E12", "S3" or "E315.5" (a bonus between two episodes); nil when the feed numbers
    /// neither.
    package static func number(season: Int?, episode: Double?) -> String? {
        let episodeText = episode.map { value in
            value == value.rounded() && abs(value) < 1e9 ? "E\(Int(value))" : "E\(value)"
        }
        let parts = [season.map { "S\($0)" }, episodeText].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// The publication day, in UTC: 2024-05-01.
    package static func day(_ date: Date) -> String {
        let components = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: date)
        return String(format: "%04d-%02d-%02d", components.year ?? 0, components.month ?? 0, components.day ?? 0)
    }

    /// 4:05, or 1:02:03 from an hour on.
    package static func clock(_ seconds: TimeInterval) -> String {
        let total = Int(seconds.rounded(.down))
        return total >= 3600
            ? String(format: "%d:%02d:%02d", total / 3600, total / 60 % 60, total % 60)
            : String(format: "%d:%02d", total / 60, total % 60)
    }
}
