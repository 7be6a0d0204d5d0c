import Foundation

/// An alarm's decisions as a pure value: events in, effects out, every moment carried by the
/// event's `AlarmInstant`. It never reads a clock and keeps no timer of its own: it asks for
/// timers (`scheduleTimer`) and the process that runs it answers `timerFired`.
///
/// Waiting: the machine looks at the wall clock at most every `checkInterval` and sleeps on the
/// monotonic clock in between. A monotonic clock may stop while the machine is suspended (Linux's
/// `CLOCK_MONOTONIC` does), so a single long sleep could end hours late; short sleeps and a look
/// at the wall clock after each find a suspend out. An alarm found due by less than `grace` sounds;
/// one found later is `missed` and told with when it was due.
///
/// Sounding: the volume goes to silence, the source starts and the volume rises in steps to the
/// listener's. The source has `soundWithin` seconds to be heard: the output's loudness, less the
/// volume the machine set, at or above `silentBelow` for `heardFor` seconds. A failure, or the
/// deadline without that, starts the built-in tone instead and tells why. The listener's hand
/// (stop, pause, a volume of their own) ends the machine's part at once.
public struct AlarmMachine: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// How long the source has to be heard before the tone replaces it.
        public var soundWithin: Double = 20
        /// Below this (LUFS, the source's own loudness) the source counts as silent.
        public var silentBelow: Double = -40
        /// How long the source must stay above `silentBelow` to count as heard: a click at the
        /// start of a silent stream is not an alarm.
        public var heardFor: Double = 1
        /// How late an alarm may still sound. Ten minutes: a resume, a network and a sound server
        /// coming back take seconds to a minute, and someone woken within a snooze's length of the
        /// time they set still gets the alarm they asked for; one found hours late (a laptop opened
        /// at noon) must not blare at someone who is already up.
        public var grace: Double = 600
        /// The longest sleep on the monotonic clock between two looks at the wall clock, which
        /// bounds how late an alarm sounds after a suspend that ended before it was due.
        public var checkInterval: Double = 10
        /// Seconds between two steps of the fade-in (each step is a short ramp, so no step clicks).
        public var fadeStep: Double = 0.5

        public init() {}
    }

    public let alarm: Alarm
    public let configuration: Configuration
    public let timeZone: TimeZone
    public internal(set) var phase: Phase = .idle

    public enum Phase: Sendable, Equatable {
        case idle
        case waiting(due: Date)
        /// Due: waiting for a player (`open`).
        case opening(due: Date)
        case sounding(Sounding)
        case cancelled
    }

    /// One sounding of the alarm, while the machine still decides about it.
    public struct Sounding: Sendable, Equatable {
        public let due: Date
        public let startedAt: PlayerTime
        /// The volume the fade rises to.
        public let target: Volume
        public var playing: AlarmPlay = .source
        /// The track ids of what `playing` sent to the player (empty until `playing` is answered).
        public var trackIDs: Set<String> = []
        /// A state of the alarm's own item was seen, so an `idle` or `finished` after it is its end.
        public var seenOwnState = false
        public var heard = false
        /// When the current run of loud enough readings began.
        public var loudSince: PlayerTime?
        public var fading: Bool
        /// The volume last set by the machine, and those the player has not published yet.
        public var volume: Volume
        public var unconfirmedVolumes: [Volume] = []
        /// The listener's volume when the alarm began, and whether the player has published one
        /// the machine set: until then, the player may still be telling the volume it started with.
        public let listenerVolume: Volume
        public var volumeConfirmed = false
        /// The player's state of the alarm's item, and the first cause of failure it gave: the
        /// root (later ones, such as the host's circuit opening, follow from it).
        public var state: PlayerState?
        public var cause: PlaybackError?
    }

    public init(alarm: Alarm, timeZone: TimeZone, configuration: Configuration = Configuration()) {
        self.alarm = alarm
        self.timeZone = timeZone
        self.configuration = configuration
    }

    /// The instant the machine waits for, or sounds for.
    public var due: Date? {
        switch phase {
        case .waiting(let due), .opening(let due): due
        case .sounding(let s): s.due
        case .idle, .cancelled: nil
        }
    }

    public mutating func handle(_ event: AlarmEvent, at now: AlarmInstant) -> [AlarmEffect] {
        switch (event, phase) {
        case (_, .cancelled):
            return []
        case (.cancel, .sounding(let s)):
            phase = .cancelled
            return finishSounding(s) + [.tell(.cancelled)]
        case (.cancel, _):
            phase = .cancelled
            return AlarmTimer.allCases.map(AlarmEffect.cancelTimer) + [.tell(.cancelled)]
        case (.start, .idle):
            return wait(after: now)
        case (.timerFired(.check), .waiting(let due)):
            return check(due: due, at: now)
        case (.opened(let volume), .opening(let due)):
            return startSounding(due: due, listenerVolume: volume, at: now)
        case (.playerUnavailable(let error), .opening(let due)):
            return [.tell(.failed(due: due, error))] + wait(after: now)
        case (_, .sounding(var s)):
            let effects = sounding(event, &s, at: now)
            if case .sounding = phase { phase = .sounding(s) }
            return effects
        default:
            return []
        }
    }

    // MARK: Waiting

    /// Waits for the next occurrence after `now`.
    mutating func wait(after now: AlarmInstant) -> [AlarmEffect] {
        let due = alarm.next(after: now.wall, in: timeZone)
        phase = .waiting(due: due)
        return [.tell(.waiting(due: due)), .scheduleTimer(.check, after: sleep(until: due, from: now))]
    }

    private func sleep(until due: Date, from now: AlarmInstant) -> Double {
        min(configuration.checkInterval, max(0, due.timeIntervalSince(now.wall)))
    }

    private mutating func check(due: Date, at now: AlarmInstant) -> [AlarmEffect] {
        let late = now.wall.timeIntervalSince(due)
        // A wake-up a hair early (the two clocks tick apart) counts as on time.
        if late < -0.001 { return [.scheduleTimer(.check, after: sleep(until: due, from: now))] }
        if late > configuration.grace {
            let error = PlaybackError(.alarmMissed, underlying: "noticed \(Int(late.rounded())) s after it was due; the grace is \(Int(configuration.grace)) s")
            return [.tell(.missed(due: due, noticed: now.wall, error))] + wait(after: now)
        }
        phase = .opening(due: due)
        return [.tell(.sounding(due: due)), .open]
    }
}
