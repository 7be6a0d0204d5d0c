import Foundation

/// Clock-style durations for progress bars and resume hints: 754 s -> "12:34", 3600 s -> "1:00:00".
package enum TimeText {
    /// Whole seconds, rounded down; negative or non-finite input reads "0:00".
    package static func clock(_ seconds: TimeInterval) -> String {
        let total = seconds.isFinite && seconds > 0 ? Int(seconds.rounded(.down)) : 0
        let h = total / 3600
        let m = (total % 3600) / 60
        let s = total % 60
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }

    /// "12:34 / 1:00:00", or the position alone when the duration is unknown.
    package static func position(_ position: TimeInterval, of duration: TimeInterval?) -> String {
        guard let duration else { return clock(position) }
        return "\(clock(position)) / \(clock(duration))"
    }
}
