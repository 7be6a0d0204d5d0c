import Foundation
import PlayerCore

/// What `tonearm alarm` says, in the listener's language: when it sounds, what it plays, why the
/// tone replaced the source, that it was missed. Days and times are the wall clock's in the
/// alarm's time zone, written the same in every language (`Mon 2026-03-02 07:00`) but for the
/// weekday's name.
package enum AlarmTexts {
    /// The line for `notice`. `source` names what the alarm plays; `now` is when it is said.
    package static func line(for notice: AlarmNotice, source: String, now: Date, zone: TimeZone, language: Language) -> String {
        func t(_ key: String, _ arguments: any CVarArg...) -> String { Texts.format("alarm.\(key)", in: language, arguments: arguments) }
        switch notice {
        case .waiting(let due):
            return t("waiting", when(due, zone: zone, language: language), wait(due.timeIntervalSince(now), language: language))
        case .sounding(let due):
            return t("sounding", when(due, zone: zone, language: language), source)
        case .sounded:
            return t("sounded", source)
        case .fellBack(_, let error):
            let text = error.text(in: language)
            return t("fellBack", source, text.title, text.message)
        case .missed(let due, let noticed, let error):
            return t("missed", when(due, zone: zone, language: language), when(noticed, zone: zone, language: language), error.message(in: language))
        case .failed(let due, let error):
            let text = error.text(in: language)
            return t("failed", when(due, zone: zone, language: language), text.title, text.message)
        case .cancelled:
            return t("cancelled")
        }
    }

    /// `Mon 2026-03-02 07:00` (seconds only when not zero) on the wall clock of `zone`.
    package static func when(_ date: Date, zone: TimeZone, language: Language) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let weekday = Weekday(daysSinceEpoch: AlarmSchedule.localDay(of: date, in: zone))
        let day = Texts.string("alarm.weekday.\(weekday.shortName)", in: language)
        let time = AlarmTime(hour: c.hour ?? 0, minute: c.minute ?? 0, second: c.second ?? 0)?.description ?? ""
        return String(format: "%@ %04d-%02d-%02d %@", day, c.year ?? 0, c.month ?? 0, c.day ?? 0, time)
    }

    /// `8 h 12 min`, `12 min`, `40 s`: a wait rounded up, so it never promises sooner than it is.
    package static func wait(_ seconds: Double, language: Language) -> String {
        let whole = Int(max(0, seconds).rounded(.up))
        if whole < 60 { return Texts.format("alarm.in.seconds", in: language, whole) }
        let minutes = (whole + 59) / 60
        if minutes < 60 { return Texts.format("alarm.in.minutes", in: language, minutes) }
        return Texts.format("alarm.in.hours", in: language, minutes / 60, minutes % 60)
    }

    /// What `tonearm alarm` says when the daemon takes the alarm.
    package static func handedOver(_ alarm: Alarm, daemonPID: Int32, due: Date, now: Date, zone: TimeZone, language: Language) -> String {
        Texts.format(
            "alarm.handedOver", in: language, "\(daemonPID)", "\(alarm.id)", when(due, zone: zone, language: language),
            wait(due.timeIntervalSince(now), language: language))
    }

    package static func string(_ key: String, in language: Language, _ arguments: any CVarArg...) -> String {
        Texts.format("alarm.\(key)", in: language, arguments: arguments)
    }
}
