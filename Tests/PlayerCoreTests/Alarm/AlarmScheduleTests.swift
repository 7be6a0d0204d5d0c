import Foundation
import PlayerCore
import Testing

/// When an alarm sounds next: days of the week, "strictly after now", and the hours daylight
/// saving skips or repeats, in real zones from the system's time zone database.
@Suite struct AlarmScheduleTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let newYork = TimeZone(identifier: "America/New_York")!
    static let lordHowe = TimeZone(identifier: "Australia/Lord_Howe")!
    static let apia = TimeZone(identifier: "Pacific/Apia")!

    /// An instant written as UTC.
    static func utc(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: text)!
    }

    static func next(_ time: String, _ days: String = "daily", after now: String, in zone: TimeZone = berlin) -> Date {
        AlarmSchedule.next(after: utc(now), time: AlarmTime.parse(time)!, days: AlarmDays.parse(days)!, in: zone)
    }

    @Test func laterTodayOrElseTomorrow() {
        // 2026-03-02 is a Monday; Berlin is UTC+1 in March before the change.
        #expect(Self.next("07:00", after: "2026-03-02T05:00:00Z") == Self.utc("2026-03-02T06:00:00Z"))
        #expect(Self.next("07:00", after: "2026-03-02T05:59:59Z") == Self.utc("2026-03-02T06:00:00Z"))
        // Strictly after now: at 07:00 itself the next one is tomorrow's.
        #expect(Self.next("07:00", after: "2026-03-02T06:00:00Z") == Self.utc("2026-03-03T06:00:00Z"))
        #expect(Self.next("07:00", after: "2026-03-02T06:00:01Z") == Self.utc("2026-03-03T06:00:00Z"))
    }

    @Test func weekdaysOnlySkipTheWeekend() {
        // Friday 2026-03-06 at 08:00 local: the next weekday alarm is Monday's.
        #expect(Self.next("07:00", "mon-fri", after: "2026-03-06T07:00:00Z") == Self.utc("2026-03-09T06:00:00Z"))
        // Friday before seven: today.
        #expect(Self.next("07:00", "mon-fri", after: "2026-03-06T05:00:00Z") == Self.utc("2026-03-06T06:00:00Z"))
        // The weekend's alarm from a Monday is Saturday's.
        #expect(Self.next("09:30", "sat,sun", after: "2026-03-02T12:00:00Z") == Self.utc("2026-03-07T08:30:00Z"))
        // Sunday after its alarm: next Saturday.
        #expect(Self.next("09:30", "sat,sun", after: "2026-03-08T10:00:00Z") == Self.utc("2026-03-14T08:30:00Z"))
        // One day a week, from that day after its time: a week later.
        #expect(Self.next("06:15", "wed", after: "2026-03-04T06:00:00Z") == Self.utc("2026-03-11T05:15:00Z"))
    }

    @Test func theLocalDayDecidesTheWeekdayNotUTCs() {
        // 23:30 UTC on Friday 2026-03-06 is already Saturday 00:30 in Berlin: a Saturday alarm at
        // 00:45 is fifteen minutes away, and a Friday one is a week away.
        #expect(Self.next("00:45", "sat", after: "2026-03-06T23:30:00Z") == Self.utc("2026-03-06T23:45:00Z"))
        #expect(Self.next("23:45", "fri", after: "2026-03-06T23:30:00Z") == Self.utc("2026-03-13T22:45:00Z"))
    }

    @Test func acrossTheEndOfAMonthAYearAndALeapDay() {
        #expect(Self.next("07:00", after: "2027-12-31T07:00:00Z") == Self.utc("2028-01-01T06:00:00Z"))
        #expect(Self.next("07:00", after: "2028-02-28T07:00:00Z") == Self.utc("2028-02-29T06:00:00Z"))
        #expect(Self.next("07:00", after: "2028-02-29T07:00:00Z") == Self.utc("2028-03-01T06:00:00Z"))
    }

    @Test func aSkippedTimeSoundsWhenTheClocksJump() {
        // Berlin, 2026-03-29: 02:00 CET becomes 03:00 CEST (01:00 UTC); 02:30 never shows.
        #expect(Self.next("02:30", after: "2026-03-28T12:00:00Z") == Self.utc("2026-03-29T01:00:00Z"))
        // 02:00 exactly is skipped too (the wall clock goes from 01:59:59 to 03:00:00).
        #expect(Self.next("02:00", after: "2026-03-28T12:00:00Z") == Self.utc("2026-03-29T01:00:00Z"))
        // 03:00 is an ordinary time that day; the next day 02:30 exists again.
        #expect(Self.next("03:00", after: "2026-03-28T12:00:00Z") == Self.utc("2026-03-29T01:00:00Z"))
        #expect(Self.next("02:30", after: "2026-03-29T01:00:00Z") == Self.utc("2026-03-30T00:30:00Z"))
        // New York, 2026-03-08: 02:00 EST becomes 03:00 EDT (07:00 UTC).
        #expect(Self.next("02:15", after: "2026-03-07T12:00:00Z", in: Self.newYork) == Self.utc("2026-03-08T07:00:00Z"))
        // Lord Howe Island moves by half an hour: 2026-10-04 02:00 becomes 02:30 (15:30 UTC the day before).
        #expect(Self.next("02:10", after: "2026-10-03T00:00:00Z", in: Self.lordHowe) == Self.utc("2026-10-03T15:30:00Z"))
    }

    @Test func aRepeatedTimeSoundsOnceAtItsFirst() {
        // Berlin, 2026-10-25: 03:00 CEST falls back to 02:00 CET (01:00 UTC); 02:30 shows twice.
        let first = Self.next("02:30", after: "2026-10-24T12:00:00Z")
        #expect(first == Self.utc("2026-10-25T00:30:00Z"))
        // After it sounded, the second 02:30 (01:30 UTC) is not another alarm: the next is a day later.
        #expect(Self.next("02:30", after: "2026-10-25T00:30:00Z") == Self.utc("2026-10-26T01:30:00Z"))
        // A time outside the repeated hour is unaffected, before and after.
        #expect(Self.next("07:00", after: "2026-10-24T12:00:00Z") == Self.utc("2026-10-25T06:00:00Z"))
        #expect(Self.next("01:30", after: "2026-10-24T12:00:00Z") == Self.utc("2026-10-24T23:30:00Z"))
    }

    @Test func aDayTheZoneSkipsHasNoAlarmOfItsOwn() {
        // Samoa crossed the date line: Thursday 2011-12-29 was followed by Saturday 2011-12-31.
        // Thursday 08:00 local (UTC-10), after that day's alarm.
        let next = Self.next("07:00", after: "2011-12-29T18:00:00Z", in: Self.apia)
        // Friday the 30th never happened; Saturday's 07:00 (UTC+14) is the next.
        #expect(next == Self.utc("2011-12-30T17:00:00Z"))
        // A Friday-only alarm skips to the next Friday.
        #expect(Self.next("07:00", "fri", after: "2011-12-29T18:00:00Z", in: Self.apia) == Self.utc("2012-01-05T17:00:00Z"))
    }

    @Test func theNextIsAlwaysLaterAndOnAnAskedDay() {
        // Through a year in Berlin in steps of 5 h 3 min (so every hour of the day comes up), with
        // an alarm at a time inside the skipped hour.
        let time = AlarmTime.parse("02:30")!
        let days = AlarmDays.parse("mon-fri,sun")!
        var now = Self.utc("2026-01-01T00:00:00Z")
        while now < Self.utc("2027-01-01T00:00:00Z") {
            let next = AlarmSchedule.next(after: now, time: time, days: days, in: Self.berlin)
            #expect(next > now)
            #expect(next.timeIntervalSince(now) <= 7 * 86_400)
            let weekday = Weekday(daysSinceEpoch: AlarmSchedule.localDay(of: next, in: Self.berlin))
            #expect(weekday != .saturday, "\(next) after \(now)")
            now = now.addingTimeInterval(18_180)
        }
    }
}
