import Foundation
import PlayerCore

/// Drives an `AlarmMachine` as its process would, with both clocks in the test's hands: the wall
/// clock and the monotonic clock move only when the test says, and timers fire when asked.
struct AlarmMachineDriver {
    var machine: AlarmMachine
    var wall: Date
    var clock = PlayerTime.zero
    var effects: [AlarmEffect] = []
    /// Timers asked for and not cancelled or fired: when they are due on the monotonic clock.
    var timers: [AlarmTimer: PlayerTime] = [:]

    static let zone = TimeZone(identifier: "Europe/Berlin")!
    static let own = Track(id: "alarm-source", url: URL(string: "http://radio.test/live")!, kind: .liveStream, title: "Radio")
    static let other = Track(id: "music", url: URL(fileURLWithPath: "/music/song.flac"), kind: .file, title: "Song")
    static let tone = Track(id: "alarm-tone-1", url: BuiltInSound.alarm.url, kind: .file, title: "Alarm")

    /// 2026-03-02 (a Monday) at `time` in Berlin (UTC+1).
    static func monday(_ time: String) -> Date {
        ISO8601DateFormatter().date(from: "2026-03-02T\(time)+01:00")!
    }

    init(alarm: Alarm, now: Date) {
        machine = AlarmMachine(alarm: alarm, timeZone: Self.zone)
        wall = now
    }

    static func alarm(_ time: String = "07:00", fadeIn: Double = 60, volume: Volume? = nil) -> Alarm {
        Alarm(time: AlarmTime.parse(time)!, source: .station("Radio"), fadeIn: fadeIn, volume: volume)
    }

    var instant: AlarmInstant { AlarmInstant(wall: wall, clock: clock) }

    @discardableResult
    mutating func send(_ event: AlarmEvent) -> [AlarmEffect] {
        let made = machine.handle(event, at: instant)
        for effect in made {
            switch effect {
            case .scheduleTimer(let timer, let after): timers[timer] = clock + after
            case .cancelTimer(let timer): timers[timer] = nil
            default: break
            }
        }
        effects += made
        return made
    }

    /// Both clocks move on by `seconds` (no suspend).
    mutating func pass(_ seconds: Double) {
        wall = wall.addingTimeInterval(seconds)
        clock = clock + seconds
    }

    /// Moves both clocks to `timer`'s time and fires it.
    @discardableResult
    mutating func fire(_ timer: AlarmTimer) -> [AlarmEffect] {
        guard let at = timers[timer] else { return [] }
        pass(at.since(clock))
        timers[timer] = nil
        return send(.timerFired(timer))
    }

    /// Starts the machine if it has not started, then fires the check timer until it asks for a
    /// player or stops waiting.
    mutating func waitUntilDue(limit: Int = 100_000) {
        if machine.phase == .idle { send(.start) }
        for _ in 0..<limit {
            guard case .waiting = machine.phase else { return }
            fire(.check)
        }
    }

    /// Waits, then answers `open` with `volume`, `playing` with the source's id and its states.
    mutating func sound(listenerVolume: Volume = .full) {
        waitUntilDue()
        send(.opened(listenerVolume: listenerVolume))
        send(.playing(.source, trackIDs: [Self.own.id]))
    }

    var notices: [AlarmNotice] {
        effects.compactMap { if case .tell(let notice) = $0 { notice } else { nil } }
    }

    var volumesSet: [Volume] {
        effects.compactMap { if case .setVolume(let volume) = $0 { volume } else { nil } }
    }

    var fellBackWith: PlaybackError? {
        notices.lazy.compactMap { if case .fellBack(_, let error) = $0 { error } else { nil } }.first
    }

    var plays: [AlarmPlay] {
        effects.compactMap { if case .play(let play) = $0 { play } else { nil } }
    }

    var isWaiting: Bool {
        if case .waiting = machine.phase { true } else { false }
    }
}
