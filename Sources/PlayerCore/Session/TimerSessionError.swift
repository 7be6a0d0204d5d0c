import Foundation

/// What is wrong with a timer as asked for (on the command line or in the library's prompt).
/// Typed, so each front end words it in the listener's language (Presentation's `TimerTexts`).
public enum TimerSessionError: Error, Sendable, Hashable {
    /// Not a duration Tonearm reads (`20m`, `90s`, `1h30m`, `1:30:00`, seconds); the text as typed.
    case notADuration(String)
    /// A duration over a day, in seconds.
    case longerThanADay(TimeInterval)
    /// A length of zero: a timer lasts at least a second.
    case lengthTooShort
    /// A length and `--open-ended` together.
    case lengthAndOpenEnded
    /// `--interval` and `--bells-at` together.
    case intervalAndTimes
    /// An interval shorter than `SessionFile.minimumBellInterval`.
    case intervalTooShort(TimeInterval)
    /// A listed bell after the timer's end (it would never ring): the bell's time and the length.
    case bellAfterEnd(TimeInterval, length: TimeInterval)
    /// More listed bells than a session takes.
    case tooManyBells(Int)
    /// Strikes per bell out of 1...5.
    case strikesOutOfRange(Int)
    /// A bell's or bed's volume out of 0...1.
    case volumeOutOfRange(Layer, Float)
    /// A bell or bed named by nothing (an empty word).
    case noSound(Layer)
    /// A bell or bed file that is not there; its path as given.
    case missingFile(Layer, String)

    /// Which layer an error is about.
    public enum Layer: String, Sendable, Hashable {
        case bell, bed
    }
}
