import Foundation

/// An episode's columns in `tonearm podcast episodes`.
public enum EpisodeText {
    /// "no audio", "played", "at 12:34" (where the listener stopped) or "new".
    public static func status(hasAudio: Bool, played: Bool, position: TimeInterval) -> String {
        if !hasAudio { return "no audio" }
        if played { return "played" }
        if position > 0 { return "at \(clock(position))" }
        return "new"
    }

    /// The publication day, in UTC: 2024-05-01.
    public static func day(_ date: Date) -> String {
        let components = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: date)
        return String(format: "%04d-%02d-%02d", components.year ?? 0, components.month ?? 0, components.day ?? 0)
    }

    /// 4:05, or 1:02:03 from an hour on.
    public static func clock(_ seconds: TimeInterval) -> String {
        let total = Int(seconds.rounded(.down))
        return total >= 3600
            ? String(format: "%d:%02d:%02d", total / 3600, total / 60 % 60, total % 60)
            : String(format: "%d:%02d", total / 60, total % 60)
    }
}
