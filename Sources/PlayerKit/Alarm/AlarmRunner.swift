import AudioEngine
import Foundation
import Logging
import PlayerCore

/// Runs one alarm: its pure `AlarmMachine` and the effects it asks for, on a thread of its own (an
/// alarm keeps time, so nothing on the shared pool may hold it back). Timers run on the injected
/// clock, the wall clock is injected too, and the player's updates come in through `observe`.
/// The runner decides nothing: every "when" and "whether" is the machine's.
package actor AlarmRunner {
    package nonisolated let executor = ThreadExecutor(name: "tonearm.alarm")
    package nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private var machine: AlarmMachine
    private let host: any AlarmHost
    private let clock: RunnerClock
    private let wall: AlarmWallClock
    private let tell: @Sendable (AlarmNotice) -> Void
    private let logger: Logger
    private let facts: AsyncStream<AlarmEvent>.Continuation
    private var player: AudioPlayer?
    private var timers = TimerSlots<AlarmTimer>()
    private var probe: (probe: OutputLoudnessProbe, task: Task<Void, Never>)?
    /// Effects waiting to be performed, in the machine's order, one at a time.
    private var queue: [AlarmEffect] = []
    private var performing = false
    private var fallbacks = 0

    /// How often the output's loudness is looked at while the machine measures: more often than
    /// the output tap fills, so no audio is missed.
    static let measureInterval = 0.04

    package init(
        alarm: Alarm, timeZone: TimeZone, host: any AlarmHost, configuration: AlarmMachine.Configuration = .init(),
        clock: any Clock<Duration> = SystemClock(), wall: AlarmWallClock = .system, logger: Logger,
        tell: @escaping @Sendable (AlarmNotice) -> Void
    ) {
        machine = AlarmMachine(alarm: alarm, timeZone: timeZone, configuration: configuration)
        self.host = host
        self.clock = RunnerClock(clock)
        self.wall = wall
        self.logger = logger
        self.tell = tell
        let (events, facts) = AsyncStream.makeStream(of: AlarmEvent.self, bufferingPolicy: .unbounded)
        self.facts = facts
        Task(executorPreference: executor) { [weak self] in
            for await event in events { await self?.apply(event) }
        }
    }

    package var alarm: Alarm { machine.alarm }

    /// The instant it sounds next (or sounds for now).
    package var due: Date? { machine.due }

    /// The machine is sounding the alarm (or opening a player for it): its playback is not yet
    /// the listener's.
    package var isSounding: Bool {
        switch machine.phase {
        case .opening, .sounding: true
        case .idle, .waiting, .cancelled: false
        }
    }

    package func start() async { await apply(.start) }

    /// Takes the alarm away: nothing more is decided or played by it.
    package func cancel() async {
        await apply(.cancel)
        facts.finish()
    }

    /// One of the player's updates, in order, from the one consumer of them, which must not
    /// wait (the daemon's): the alarm sees it soon after, in the same order.
    package nonisolated func post(_ update: PlayerUpdate) {
        if let event = Self.event(for: update) { facts.yield(event) }
    }

    /// One of the player's updates, decided on before this returns: a consumer that asks
    /// `isSounding` next gets the answer that includes it.
    package func observe(_ update: PlayerUpdate) async {
        if let event = Self.event(for: update) { await apply(event) }
    }

    private static func event(for update: PlayerUpdate) -> AlarmEvent? {
        switch update {
        case .state(let state, _, _): .playerState(state)
        case .volume(let volume, _): .volume(volume)
        default: nil
        }
    }

    private func apply(_ event: AlarmEvent) async {
        queue += machine.handle(event, at: AlarmInstant(wall: wall.now(), clock: PlayerTime(seconds: clock.now())))
        guard !performing else { return }
        performing = true
        while !queue.isEmpty { await perform(queue.removeFirst()) }
        performing = false
    }

    private func perform(_ effect: AlarmEffect) async {
        switch effect {
        case .scheduleTimer(let timer, let after): schedule(timer, after: after)
        case .cancelTimer(let timer): timers.cancel(timer)
        case .open: await open()
        case .play(let play): await start(play)
        case .setVolume(let volume):
            do throws(PlaybackError) {
                try await player?.send(.setVolume(.to(volume)))
            } catch {
                logger.warning("alarm volume refused", metadata: ["code": "\(error.code.rawValue)"])
            }
        case .measure(let on): on ? startMeasuring() : stopMeasuring()
        case .tell(let notice):
            AlarmLog.record(notice, alarm: machine.alarm, logger: logger)
            tell(notice)
        }
    }

    private func open() async {
        do throws(PlaybackError) {
            let player = try await host.player()
            self.player = player
            await apply(.opened(listenerVolume: await player.volume))
        } catch {
            await apply(.playerUnavailable(error))
        }
    }

    /// Sends the source or the tone to the player; the machine learns its track ids first, so no
    /// state of it can come before the machine knows it as the alarm's.
    private func start(_ play: AlarmPlay) async {
        guard let player else { return }
        let replacement: PlayerEvent.Replacement
        switch play {
        case .source:
            do throws(PlaybackError) {
                replacement = try await host.replacement(for: machine.alarm.source)
            } catch {
                return await apply(.sourceUnavailable(error))
            }
        case .fallback:
            fallbacks += 1
            replacement = .play(AlarmFallback.request(attempt: fallbacks))
        }
        guard case .play(let request) = replacement else {
            if case .cannotPlay(let error) = replacement { await apply(.sourceUnavailable(error)) }
            return
        }
        await apply(.playing(play, trackIDs: Set(request.items.map(\.track.id))))
        do throws(PlaybackError) {
            try await player.send(.replace(.play(request)))
        } catch {
            await apply(.sourceUnavailable(error))
        }
    }

    private func schedule(_ timer: AlarmTimer, after seconds: Double) {
        let clock = self.clock
        timers.arm(timer) { token in
            Task(executorPreference: executor) { [weak self] in
                do {
                    try await clock.sleep(seconds)
                } catch {
                    return
                }
                await self?.fire(timer, token: token)
            }
        }
    }

    private func fire(_ timer: AlarmTimer, token: UInt64) async {
        guard timers.fire(timer, token: token) else { return }
        await apply(.timerFired(timer))
    }

    private func startMeasuring() {
        guard probe == nil, let player else { return }
        let meter = OutputLoudnessProbe(tap: player.outputTap)
        let clock = self.clock
        let task = Task(executorPreference: executor) { [weak self] in
            while !Task.isCancelled {
                do {
                    try await clock.sleep(Self.measureInterval)
                } catch {
                    return
                }
                await self?.apply(.outputLoudness(meter.sample()))
            }
        }
        probe = (meter, task)
    }

    private func stopMeasuring() {
        guard let (meter, task) = probe else { return }
        task.cancel()
        meter.stop()
        probe = nil
    }
}

/// The injected clock erased to seconds since the runner started and a cancellable sleep.
private struct RunnerClock: Sendable {
    let now: @Sendable () -> Double
    let sleep: @Sendable (Double) async throws -> Void

    init(_ clock: any Clock<Duration>) {
        self.init(opened: clock)
    }

    private init<C: Clock>(opened clock: C) where C.Duration == Duration {
        let start = clock.now
        now = { start.duration(to: clock.now).inSeconds }
        sleep = { seconds in try await clock.sleep(for: .seconds(max(0, seconds))) }
    }
}
