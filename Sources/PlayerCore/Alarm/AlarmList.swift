import Foundation

/// The alarms the daemon sounds, as kept in their file: each with an id of its own, never reused
/// while the list lives, so `--cancel 3` can never remove an alarm set after `--list` was read.
public struct AlarmList: Sendable, Hashable, Codable {
    public private(set) var alarms: [Alarm]
    /// The id the next alarm gets.
    public private(set) var nextID: Int

    public init(alarms: [Alarm] = [], nextID: Int? = nil) {
        self.alarms = alarms
        self.nextID = max(nextID ?? 1, (alarms.map(\.id).max() ?? 0) + 1)
    }

    /// Adds `alarm` under a new id and returns it as kept.
    public mutating func add(_ alarm: Alarm) -> Alarm {
        var kept = alarm
        kept.id = nextID
        nextID += 1
        alarms.append(kept)
        return kept
    }

    /// Removes the alarm with `id`; nil when there is none.
    public mutating func remove(id: Int) -> Alarm? {
        guard let index = alarms.firstIndex(where: { $0.id == id }) else { return nil }
        return alarms.remove(at: index)
    }
}
