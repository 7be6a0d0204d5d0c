import Foundation

/// The only thing opt-in sharing sends: how many errors of one type happened in one whole hour.
///
/// Built from `ErrorEvent`s, which already hold nothing personal; the count then drops even the
/// event's own id, exact second, operation and resolution, so what leaves the machine cannot be
/// matched to anything the listener did at a given moment.
public struct HourlyErrorCount: Sendable, Hashable, Comparable {
    /// The hour's first second (UTC).
    public let hour: Date
    /// `PlaybackError.errorType`, such as `Network.timeout`.
    public let errorType: String
    public let count: Int

    public init(hour: Date, errorType: String, count: Int) {
        self.hour = hour
        self.errorType = errorType
        self.count = count
    }

    /// The error's category in lower case (`network`), as the Prometheus metrics label it.
    public var category: String {
        String(errorType.prefix { $0 != "." }).lowercased()
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.hour, lhs.errorType) < (rhs.hour, rhs.errorType)
    }

    private static let secondsPerHour = 3600.0

    /// The first second of the hour `date` falls in.
    public static func hourStart(of date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / secondsPerHour).rounded(.down) * secondsPerHour)
    }

    /// `date` when it starts an hour, otherwise the start of the next one.
    public static func hourBoundary(atOrAfter date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / secondsPerHour).rounded(.up) * secondsPerHour)
    }

    /// The counts of the whole hours from `start` up to `end`, sorted by hour then type. Both
    /// bounds are hour boundaries (`start` rounded up, `end` down), so a partial hour is never
    /// counted: it is sent once it is over, whole.
    public static func counts(of events: [ErrorEvent], from start: Date, before end: Date) -> [HourlyErrorCount] {
        let lower = hourBoundary(atOrAfter: start)
        let upper = hourStart(of: end)
        var tally: [Key: Int] = [:]
        for event in events where event.timestamp >= lower && event.timestamp < upper {
            tally[Key(hour: hourStart(of: event.timestamp), errorType: event.errorType), default: 0] += 1
        }
        return tally.map { HourlyErrorCount(hour: $0.key.hour, errorType: $0.key.errorType, count: $0.value) }.sorted()
    }

    private struct Key: Hashable {
        let hour: Date
        let errorType: String
    }
}
