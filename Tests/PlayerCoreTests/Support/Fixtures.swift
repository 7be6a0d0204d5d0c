import Foundation
import PlayerCore

/// Tracks and ready-made machines in each state, shared by the state machine tests.
enum Fixture {
    static func file(_ name: String, duration: TimeInterval? = 60) -> Track {
        Track(id: "file:\(name)", url: URL(fileURLWithPath: "/music/\(name).flac"), kind: .file, title: name, duration: duration)
    }

    static func episode(_ name: String, duration: TimeInterval? = 3600) -> Track {
        Track(
            id: "episode:\(name)", url: URL(string: "https://podcasts.example/\(name).mp3")!, kind: .episode,
            title: name, album: "Podcast", duration: duration)
    }

    static func live(_ name: String = "radio") -> Track {
        Track(id: "station:\(name)", url: URL(string: "http://127.0.0.1:8000/\(name)")!, kind: .liveStream, title: name)
    }

    static let stage1 = file("stage1", duration: 600)
    static let stage2 = file("stage2", duration: 600)
    static let stage3 = file("stage3", duration: 600)

    static func config(crossfade: TimeInterval = 10, fadeOutAtEnd: Bool = true) -> PlayerStateMachine.Configuration {
        PlayerStateMachine.Configuration(
            defaultCrossfade: CrossfadeSpec(duration: crossfade, curve: .equalPower),
            skipCrossfade: CrossfadeSpec(duration: 2, curve: .equalPower),
            fadeOutDuration: 0.5, preloadLead: 5, fadeOutAtEnd: fadeOutAtEnd)
    }

    static func request(_ tracks: Track...) -> PlayRequest {
        PlayRequest(items: tracks.map { QueueItem(track: $0) })!
    }
}

/// Drives a machine and remembers what it said, so tests read as event scripts.
struct Driver {
    var machine: PlayerStateMachine
    private(set) var effects: [PlayerEffect] = []
    private(set) var names: [PlayerState.Name] = []

    init(_ configuration: PlayerStateMachine.Configuration = Fixture.config(), seed: UInt64 = 42) {
        machine = PlayerStateMachine(configuration: configuration, random: SeededRandom(seed: seed))
        names = [machine.state.name]
    }

    var state: PlayerState { machine.state }

    @discardableResult
    mutating func send(_ event: PlayerEvent, at now: Double? = nil) throws(PlaybackError) -> [PlayerEffect] {
        let out: [PlayerEffect]
        if let now {
            out = try machine.handle(event, at: PlayerTime(seconds: now))
        } else {
            out = try machine.handle(event)
        }
        effects += out
        if names.last != machine.state.name { names.append(machine.state.name) }
        return out
    }

    /// The id of the most recent `load` effect.
    var lastLoad: LoadID? {
        for effect in effects.reversed() {
            if case .load(let id, _, _, _) = effect { return id }
        }
        return nil
    }

    /// The deck of the most recent `load` effect.
    var lastLoadDeck: DeckID? {
        for effect in effects.reversed() {
            if case .load(_, let deck, _, _) = effect { return deck }
        }
        return nil
    }

    var lastScheduledRetry: (attempt: Int, at: PlayerTime)? {
        for effect in effects.reversed() {
            if case .scheduleTimer(.retry(let attempt), let at) = effect { return (attempt, at) }
        }
        return nil
    }

    /// The most recent timer the machine asked for, of any kind.
    var lastScheduledTimer: (timer: PlayerTimer, at: PlayerTime)? {
        for effect in effects.reversed() {
            if case .scheduleTimer(let timer, let at) = effect { return (timer, at) }
        }
        return nil
    }

    /// The most recent timer the machine asked for in `slot`.
    func lastScheduled(_ slot: PlayerTimer.Slot) -> (timer: PlayerTimer, at: PlayerTime)? {
        for effect in effects.reversed() {
            if case .scheduleTimer(let timer, let at) = effect, timer.slot == slot { return (timer, at) }
        }
        return nil
    }

    // MARK: Reaching each state

    static func playing(_ tracks: Track..., config: PlayerStateMachine.Configuration = Fixture.config()) throws -> Driver {
        var d = Driver(config)
        try d.send(.play(PlayRequest(items: tracks.map { QueueItem(track: $0) })!))
        try d.send(.loaded(d.lastLoad!, duration: tracks[0].duration))
        return d
    }

    /// stage1 playing, stage2 loading on the other deck after a skip.
    static func preparingCrossfade() throws -> Driver {
        var d = try playing(Fixture.stage1, Fixture.stage2, Fixture.stage3)
        try d.send(.skip)
        return d
    }

    /// stage1 -> stage2 crossfade at `progress` (a skip: 2 s equal power).
    static func crossfading(at progress: Float = 0.3) throws -> Driver {
        var d = try preparingCrossfade()
        try d.send(.loaded(d.lastLoad!, duration: 600))
        try d.send(.crossfadeStarted)
        try d.send(.crossfadeProgress(progress, fromPosition: 100 + Double(progress) * 2, toPosition: Double(progress) * 2))
        return d
    }

    static func crossfadePaused(at progress: Float = 0.3) throws -> Driver {
        var d = try crossfading(at: progress)
        try d.send(.pause)
        return d
    }

    static func paused() throws -> Driver {
        var d = try playing(Fixture.stage1)
        try d.send(.positionChanged(.a, position: 42))
        try d.send(.pause)
        return d
    }

    static func live() throws -> Driver {
        try playing(Fixture.live())
    }

    static func buffering() throws -> Driver {
        var d = try live()
        try d.send(.underrun(.a))
        return d
    }

    static func reconnecting() throws -> Driver {
        var d = try live()
        try d.send(.errorOccurred(.a, PlaybackError(.connectionLost), at: PlayerTime(seconds: 10)))
        return d
    }

    static func fadingOut() throws -> Driver {
        var d = try playing(Fixture.stage1)
        try d.send(.stop)
        return d
    }

    static func finished() throws -> Driver {
        var d = try fadingOut()
        try d.send(.fadeOutCompleted)
        return d
    }

    /// An episode failed on a network error at 754 s: recoverable, with a resume point.
    static func failedRecoverable() throws -> Driver {
        var d = try playing(Fixture.episode("ep1"))
        try d.send(.positionChanged(.a, position: 754))
        try d.send(.errorOccurred(.a, PlaybackError(.httpNotFound, httpStatus: 404), at: PlayerTime(seconds: 5)))
        return d
    }

    static func failedFinal() throws -> Driver {
        var d = try playing(Fixture.stage1)
        try d.send(.errorOccurred(.a, PlaybackError(.corruptData), at: PlayerTime(seconds: 5)))
        return d
    }
}

extension [PlayerEffect] {
    /// The effects other than timers, for tests about what the machine does rather than when
    /// (`TimerTests` checks the timers).
    var withoutTimers: [PlayerEffect] {
        filter {
            switch $0 {
            case .scheduleTimer, .cancelTimer: false
            default: true
            }
        }
    }
}
