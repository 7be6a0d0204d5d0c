import Foundation

/// When an alarm sounds next: a pure function of now, the time of day, the days and the time zone,
/// so every case of the calendar is a test rather than a night's wait.
///
/// The rules for the hours a daylight-saving change makes odd:
/// - A time the clocks skip (02:30 when 02:00 jumps to 03:00) sounds at the jump: the first moment
///   the wall clock shows the alarm's time or later. Skipping the day would leave the sleeper
///   without an alarm; sounding an hour later would be an hour late.
/// - A time the clocks show twice (02:30 when 03:00 falls back to 02:00) sounds once, at the first:
///   the listener set one alarm for that day.
/// - A whole day a zone skips (Samoa went from 29 to 31 December 2011) has no alarm of its own;
///   the next day's is the next.
public enum AlarmSchedule {
    /// The first instant strictly after `now` at which an alarm at `time` on `days` sounds in `zone`.
    public static func next(after now: Date, time: AlarmTime, days: AlarmDays, in zone: TimeZone) -> Date {
        let today = localDay(of: now, in: zone)
        // Two weeks always hold a next occurrence: at most one of each seven days can be skipped.
        for day in (today - 1)...(today + 14) where days.contains(Weekday(daysSinceEpoch: day)) {
            if let instant = instant(day: day, time: time, in: zone), instant > now { return instant }
        }
        // Unreachable for any real zone; a fixed answer keeps the function total.
        return now.addingTimeInterval(86_400)
    }

    /// The local calendar day of `date` in `zone`, counted from 1970-01-01.
    public static func localDay(of date: Date, in zone: TimeZone) -> Int {
        let local = date.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: date))
        return Int((local / 86_400).rounded(.down))
    }

    /// The instant `time` on local day `day` names in `zone`: the first of two when the clocks fall
    /// back over it, the moment of the jump when they skip it, nil when the zone skips the day.
    public static func instant(day: Int, time: AlarmTime, in zone: TimeZone) -> Date? {
        // The wall time read as if it were UTC; the real instant is this minus the offset in force.
        let wall = Double(day) * 86_400 + Double(time.secondsIntoDay)
        let offsets = Set(
            [wall - 86_400, wall, wall + 86_400].map { zone.secondsFromGMT(for: Date(timeIntervalSince1970: $0)) })
        let valid = offsets.map { wall - Double($0) }.filter { zone.secondsFromGMT(for: Date(timeIntervalSince1970: $0)) == Int(wall - $0) }
        if let first = valid.min() { return Date(timeIntervalSince1970: first) }
        // No offset makes the wall time: the clocks skip it. They jump somewhere between the
        // instant the earliest offset names and the one the latest names.
        guard let low = offsets.max(), let high = offsets.min() else { return nil }
        let jump = transition(from: wall - Double(low), to: wall - Double(high), in: zone)
        // The jump belongs to this day's morning only when the wall clock lands on the same day.
        return localDay(of: jump, in: zone) == day ? jump : nil
    }

    /// The first whole second in (`start`, `end`] whose offset differs from `start`'s (a binary
    /// search: zones tell offsets at instants, not the instants of their changes).
    private static func transition(from start: Double, to end: Double, in zone: TimeZone) -> Date {
        let before = zone.secondsFromGMT(for: Date(timeIntervalSince1970: start))
        var low = start.rounded(.down)
        var high = end.rounded(.up)
        while high - low > 1 {
            let middle = ((low + high) / 2).rounded(.down)
            if zone.secondsFromGMT(for: Date(timeIntervalSince1970: middle)) == before { low = middle } else { high = middle }
        }
        return Date(timeIntervalSince1970: high)
    }
}
