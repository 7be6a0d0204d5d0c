import Foundation

/// A day of the week, Monday first (ISO 8601).
public enum Weekday: Int, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case monday, tuesday, wednesday, thursday, friday, saturday, sunday

    /// `mon`, `tue`... as `--days` writes them.
    public var shortName: String {
        ["mon", "tue", "wed", "thu", "fri", "sat", "sun"][rawValue]
    }

    /// The weekday of a day counted from 1970-01-01, which was a Thursday.
    public init(daysSinceEpoch day: Int) {
        let index = ((day + 3) % 7 + 7) % 7
        self = Weekday(rawValue: index)!
    }

    /// `mon` or `monday`, any case; nil otherwise.
    public init?(name: String) {
        let lower = name.lowercased()
        guard let day = Weekday.allCases.first(where: { lower == $0.shortName || lower == $0.fullName }) else { return nil }
        self = day
    }

    var fullName: String {
        ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"][rawValue]
    }

    public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The days an alarm sounds on: `mon-fri`, `sat,sun`, `mon,wed-fri`; every day when not given.
/// A range may wrap past Sunday (`fri-mon` is Friday to Monday).
public struct AlarmDays: Sendable, Hashable, Codable, CustomStringConvertible {
    public let days: Set<Weekday>

    /// Nil for an empty set: an alarm that never sounds is not an alarm.
    public init?(_ days: Set<Weekday>) {
        guard !days.isEmpty else { return nil }
        self.days = days
    }

    public static let everyDay = AlarmDays(Set(Weekday.allCases))!

    public func contains(_ day: Weekday) -> Bool { days.contains(day) }

    /// `mon-fri`, `sat,sun`, `daily`; nil for anything else.
    public static func parse(_ text: String) -> AlarmDays? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed == "daily" || trimmed == "every-day" { return .everyDay }
        var days = Set<Weekday>()
        for item in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            let ends = item.trimmingCharacters(in: .whitespaces).split(separator: "-", omittingEmptySubsequences: false)
            guard (1...2).contains(ends.count), let first = Weekday(name: String(ends[0])) else { return nil }
            guard ends.count == 2 else {
                days.insert(first)
                continue
            }
            guard let last = Weekday(name: String(ends[1])) else { return nil }
            var day = first
            days.insert(day)
            while day != last {
                day = Weekday(rawValue: (day.rawValue + 1) % 7)!
                days.insert(day)
            }
        }
        return AlarmDays(days)
    }

    /// `daily`, or the days in order with runs of three or more as ranges: `mon-fri`, `sat,sun`.
    public var description: String {
        if days.count == 7 { return "daily" }
        let sorted = days.sorted()
        var parts: [String] = []
        var index = 0
        while index < sorted.count {
            var end = index
            while end + 1 < sorted.count, sorted[end + 1].rawValue == sorted[end].rawValue + 1 { end += 1 }
            if end - index >= 2 {
                parts.append("\(sorted[index].shortName)-\(sorted[end].shortName)")
            } else {
                parts += sorted[index...end].map(\.shortName)
            }
            index = end + 1
        }
        return parts.joined(separator: ",")
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let days = AlarmDays.parse(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a set of days: \(text)"))
        }
        self = days
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
