import Foundation

/// Number helpers shared by the view states.
enum Fractions {
    /// Progress is truncated to a whole percent, as `PlayerState.statusText` does.
    static func percent(_ progress: Float) -> Int {
        Int((min(1, max(0, progress.isFinite ? progress : 0)) * 100).rounded(.down))
    }

    /// A state's `Float` progress as the decimal it stands for: `Float(0.47)` widens to
    /// 0.4699999988…; rounding to 1e-6 (below Float's 7 significant digits) gives back 0.47, so
    /// gains computed from it match `FadeCurve.gains(at: 0.47)` exactly.
    static func unit(_ progress: Float) -> Double {
        let clamped = min(1, max(0, progress.isFinite ? Double(progress) : 0))
        return (clamped * 1_000_000).rounded() / 1_000_000
    }

    /// `position / duration` clamped to 0...1, or nil when the duration is unknown or not positive.
    static func fraction(_ position: TimeInterval?, of duration: TimeInterval?) -> Double? {
        guard let position, let duration, duration.isFinite, duration > 0, position.isFinite else { return nil }
        return min(1, max(0, position / duration))
    }
}

/// Spoken-sentence helper: ends a phrase with a full stop unless it already ends a sentence.
enum Sentences {
    static func sentence(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let last = trimmed.last else { return "" }
        return ".!?…".contains(last) ? trimmed : trimmed + "."
    }

    static func join(_ phrases: [String]) -> String {
        phrases.map(sentence).filter { !$0.isEmpty }.joined(separator: " ")
    }
}
