import Foundation

/// The sleep timer: playback ends by itself after a while of listening, or at the end of the
/// current item (an episode, a session's stage) or of the whole queue.
///
/// The countdown runs only while something sounds (`playing`, `preparingCrossfade`,
/// `crossfading`): a pause, a reconnect or a wait for data freezes it, and it goes on from where
/// it was. When it runs out, playback fades out (`Configuration.sleepFadeDuration`, 10 s by
/// default) through `fadingOut` to `finished`, and an episode's place is saved where the fade
/// began. A stop, or the end of playback, ends the timer too.
public struct SleepTimer: Sendable, Hashable, Codable {
    public enum Ending: String, Sendable, Hashable, Codable {
        /// After `remaining` seconds of listening.
        case afterDuration
        /// When the current item ends: the queue does not go on to the next one.
        case endOfItem
        /// When the queue ends (what playback does anyway; said so the listener knows).
        case endOfQueue
    }

    public let ending: Ending
    /// Seconds left when the countdown last stopped or started (`afterDuration` only).
    public internal(set) var remaining: TimeInterval
    /// Since when the countdown runs; nil while it is frozen.
    public internal(set) var runningSince: PlayerTime?
    /// Seconds of the fade when it runs out; nil for the configured sleep fade
    /// (`Configuration.sleepFadeDuration`). A clip's is short: its length is all it has.
    public let fade: TimeInterval?

    /// The longest a timer may be set for: a day.
    public static let maximum: TimeInterval = 86_400

    public init(ending: Ending, remaining: TimeInterval = 0, runningSince: PlayerTime? = nil, fade: TimeInterval? = nil) {
        self.ending = ending
        self.remaining = min(Self.maximum, max(0, remaining.isFinite ? remaining : 0))
        self.runningSince = runningSince
        self.fade = fade.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
    }

    /// Set for a clip (`SleepRequest.clip`), the only timer with a fade of its own: it ends when
    /// something else replaces the clip.
    public var isClip: Bool { fade != nil }

    /// Seconds left at `now` (nil unless `afterDuration`).
    public func remaining(at now: PlayerTime) -> TimeInterval? {
        guard ending == .afterDuration else { return nil }
        return max(0, remaining - (runningSince.map { max(0, now.since($0)) } ?? 0))
    }

    /// When it runs out, while it runs.
    public var deadline: PlayerTime? {
        guard ending == .afterDuration, let runningSince else { return nil }
        return runningSince + remaining
    }
}

/// What a listener asks of the sleep timer.
public enum SleepRequest: Sendable, Hashable {
    /// In this many seconds of listening (replacing any timer).
    case after(TimeInterval)
    /// A clip (a podcast's soundbite): this many seconds of listening from the first sound, then
    /// the shortest fade (`Configuration.sleepFadeRange`'s lower bound), whatever the sleep fade
    /// is set to, so the clip is heard whole and ends soon after.
    case clip(TimeInterval)
    case endOfItem
    case endOfQueue
    /// This many seconds more (a timer that ends with an item or the queue becomes one that ends
    /// after this long; with no timer, it is set for this long).
    case extend(by: TimeInterval)
    case cancel
    /// The next of the usual choices, as one key steps through them: off, 15, 30, 60 minutes, the
    /// end of the item, off.
    case cycle

    /// The steps of `cycle`, in minutes.
    public static let cycleMinutes: [Double] = [15, 30, 60]

    /// `30m`, `90s`, `1h`, `1h30m`, `45` (minutes), `end` (of the item), `end-of-queue`, `+5m`
    /// (extend), `cancel` or `off`. Nil for anything else, zero, or more than a day.
    public static func parse(_ text: String) -> SleepRequest? {
        let word = text.trimmingCharacters(in: .whitespaces).lowercased()
        switch word {
        case "end", "end-of-item", "end-of-episode": return .endOfItem
        case "end-of-queue", "end-of-session": return .endOfQueue
        case "cancel", "off": return .cancel
        default: break
        }
        if word.hasPrefix("+") {
            guard let seconds = duration(String(word.dropFirst())) else { return nil }
            return .extend(by: seconds)
        }
        return duration(word).map(SleepRequest.after)
    }

    /// `90s`, `30m`, `1h`, `1h30m`, or a bare number of minutes; between 1 s and a day.
    public static func duration(_ text: String) -> TimeInterval? {
        guard !text.isEmpty else { return nil }
        if text.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard let minutes = Double(text) else { return nil }
            return valid(minutes * 60)
        }
        var total: TimeInterval = 0
        var digits = ""
        for character in text {
            if character.isASCII, character.isNumber {
                digits.append(character)
                continue
            }
            guard let value = Double(digits), let unit = ["h": 3_600.0, "m": 60, "s": 1][String(character)] else { return nil }
            total += value * unit
            digits = ""
        }
        guard digits.isEmpty else { return nil }
        return valid(total)
    }

    private static func valid(_ seconds: TimeInterval) -> TimeInterval? {
        seconds >= 1 && seconds <= SleepTimer.maximum ? seconds : nil
    }
}
