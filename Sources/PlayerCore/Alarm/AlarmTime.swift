import Foundation

/// The time of day an alarm sounds, on the local wall clock: `07:00`, or `06:59:30` when seconds
/// matter. A time of day, not an instant: which instant it names depends on the day and the time
/// zone (`AlarmSchedule`).
public struct AlarmTime: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    public let hour: Int
    public let minute: Int
    public let second: Int

    /// Nil unless 0 ≤ hour < 24, 0 ≤ minute < 60, 0 ≤ second < 60.
    public init?(hour: Int, minute: Int, second: Int = 0) {
        guard (0..<24).contains(hour), (0..<60).contains(minute), (0..<60).contains(second) else { return nil }
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// Seconds after midnight on the wall clock.
    public var secondsIntoDay: Int { hour * 3600 + minute * 60 + second }

    /// `7:00`, `07:00` or `07:00:30` (24-hour); nil for anything else.
    public static func parse(_ text: String) -> AlarmTime? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count) else { return nil }
        var numbers: [Int] = []
        for (index, part) in parts.enumerated() {
            // The hour may have one digit; minutes and seconds always have two.
            let digits = index == 0 ? 1...2 : 2...2
            guard digits.contains(part.count), part.allSatisfy(\.isASCII), part.allSatisfy(\.isNumber), let number = Int(part) else { return nil }
            numbers.append(number)
        }
        return AlarmTime(hour: numbers[0], minute: numbers[1], second: numbers.count == 3 ? numbers[2] : 0)
    }

    /// `07:00`, with `:30` only when the seconds are not zero.
    public var description: String {
        let base = String(format: "%02d:%02d", hour, minute)
        return second == 0 ? base : base + String(format: ":%02d", second)
    }

    public static func < (lhs: AlarmTime, rhs: AlarmTime) -> Bool { lhs.secondsIntoDay < rhs.secondsIntoDay }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let time = AlarmTime.parse(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a time of day: \(text)"))
        }
        self = time
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
