import Foundation
import PlayerCore
import Testing

/// What `tonearm alarm` accepts as a time and as days, and how the daemon's file keeps them.
@Suite struct AlarmParsingTests {
    @Test func timesOfDay() {
        #expect(AlarmTime.parse("07:00") == AlarmTime(hour: 7, minute: 0))
        #expect(AlarmTime.parse("7:05") == AlarmTime(hour: 7, minute: 5))
        #expect(AlarmTime.parse("23:59:30") == AlarmTime(hour: 23, minute: 59, second: 30))
        #expect(AlarmTime.parse("00:00")?.secondsIntoDay == 0)
        for bad in ["24:00", "7", "07:60", "07:5", "07:00:60", "-1:00", "07:00 pm", "", "٠٧:٠٠", "07:00:00:00"] {
            #expect(AlarmTime.parse(bad) == nil, "\(bad)")
        }
        #expect(AlarmTime.parse("7:00")?.description == "07:00")
        #expect(AlarmTime.parse("06:59:30")?.description == "06:59:30")
    }

    @Test func daysOfTheWeek() {
        #expect(AlarmDays.parse("mon-fri")?.days == [.monday, .tuesday, .wednesday, .thursday, .friday])
        #expect(AlarmDays.parse("sat,sun")?.days == [.saturday, .sunday])
        #expect(AlarmDays.parse("Mon,WED-fri")?.days == [.monday, .wednesday, .thursday, .friday])
        #expect(AlarmDays.parse("fri-mon")?.days == [.friday, .saturday, .sunday, .monday])
        #expect(AlarmDays.parse("tuesday")?.days == [.tuesday])
        #expect(AlarmDays.parse("daily") == .everyDay)
        #expect(AlarmDays.parse("mon-sun") == .everyDay)
        for bad in ["", "mon-", "funday", "mon,,tue", "mon-tue-wed", "7"] {
            #expect(AlarmDays.parse(bad) == nil, "\(bad)")
        }
        #expect(AlarmDays.parse("fri,mon-wed")?.description == "mon-wed,fri")
        #expect(AlarmDays.parse("sat,sun")?.description == "sat,sun")
        #expect(AlarmDays.parse("sun-sat")?.description == "daily")
    }

    @Test func theWeekdayOfADayCountedFrom1970() {
        #expect(Weekday(daysSinceEpoch: 0) == .thursday)
        #expect(Weekday(daysSinceEpoch: 4) == .monday)
        #expect(Weekday(daysSinceEpoch: -1) == .wednesday)
    }

    @Test func theListKeepsIdsAndRoundTripsThroughJSON() throws {
        var list = AlarmList()
        let time = try #require(AlarmTime.parse("07:00"))
        let first = list.add(Alarm(time: time, days: try #require(AlarmDays.parse("mon-fri")), source: .station("Radio X")))
        let second = list.add(Alarm(time: time, source: .episode(42), fadeIn: 0, volume: Volume(0.4)))
        #expect(first.id == 1 && second.id == 2)
        #expect(list.remove(id: 1) == first)
        #expect(list.remove(id: 1) == nil)
        // A removed id is never given again.
        #expect(list.add(Alarm(time: time, source: .session("Morning"))).id == 3)
        let decoded = try JSONDecoder().decode(AlarmList.self, from: JSONEncoder().encode(list))
        #expect(decoded == list)
        // Out-of-range fades are clamped, not kept as given.
        #expect(Alarm(time: time, source: .episode(1), fadeIn: 9_999).fadeIn == 300)
    }
}
