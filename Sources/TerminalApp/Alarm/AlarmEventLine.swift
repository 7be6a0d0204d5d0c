import Foundation
import PlayerCore
import Presentation

/// `--events jsonl` for an alarm: one `{"event": "alarm", ...}` line per notice, among the
/// player's own events (documented in docs/DEBUGGING.md with them).
///
/// - `{"event": "alarm", "alarm": "waiting", "id": 0, "due": "2026-03-02T07:00:00+01:00", "in": 3.0}`
/// - `{"event": "alarm", "alarm": "sounding", "due": …, "source": "station Radio X"}`
/// - `{"event": "alarm", "alarm": "sounded", "due": …}`: the source was heard.
/// - `{"event": "alarm", "alarm": "fallback", "due": …, "error": {error}}`: the tone plays instead.
/// - `{"event": "alarm", "alarm": "missed", "due": …, "noticed": …, "error": {error}}`
/// - `{"event": "alarm", "alarm": "failed", "due": …, "error": {error}}`: nothing could sound.
/// - `{"event": "alarm", "alarm": "cancelled"}`
///
/// Times are the wall clock's, ISO 8601 with the local offset; `in` is seconds until `due`.
package enum AlarmEventLine {
    package static func json(for notice: AlarmNotice, alarm: Alarm, now: Date, zone: TimeZone, language: Language = .current) -> String {
        var o: [String: Any] = ["event": "alarm", "id": alarm.id]
        func stamp(_ date: Date) -> String { timestamp(date, zone: zone) }
        switch notice {
        case .waiting(let due):
            o["alarm"] = "waiting"
            o["due"] = stamp(due)
            o["in"] = EventLine.rounded(due.timeIntervalSince(now))
        case .sounding(let due):
            o["alarm"] = "sounding"
            o["due"] = stamp(due)
            o["source"] = alarm.source.description
        case .sounded(let due):
            o["alarm"] = "sounded"
            o["due"] = stamp(due)
        case .fellBack(let due, let error):
            o["alarm"] = "fallback"
            o["due"] = stamp(due)
            o["error"] = EventLine.error(error, language: language)
        case .missed(let due, let noticed, let error):
            o["alarm"] = "missed"
            o["due"] = stamp(due)
            o["noticed"] = stamp(noticed)
            o["error"] = EventLine.error(error, language: language)
        case .failed(let due, let error):
            o["alarm"] = "failed"
            o["due"] = stamp(due)
            o["error"] = EventLine.error(error, language: language)
        case .cancelled:
            o["alarm"] = "cancelled"
        }
        guard let data = try? JSONSerialization.data(withJSONObject: o, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return "{\"event\":\"error\"}"
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// ISO 8601 with the offset of `zone` at that instant.
    package static func timestamp(_ date: Date, zone: TimeZone) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = zone
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
