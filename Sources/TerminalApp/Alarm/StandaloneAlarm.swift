import AudioEngine
import Foundation
import LibraryKit
import MPRIS
import PlayerCore
import PlayerKit
import Presentation
import Synchronization

/// An alarm that waits in its own process (no daemon runs): it opens the output only when the
/// alarm is due, plays there with its updates on stdout, and closes it when the playback is over
/// (the listener's stop, the end, a failure the alarm no longer decides about); then it waits for
/// the next time. Lines on stdin are the player's commands (`stop`, `volume 40%`...) while it
/// sounds. The first SIGINT or SIGTERM cancels the alarm: what sounds fades out and the process
/// ends with status 0.
package final class StandaloneAlarm: AlarmHost {
    private let library: LibraryContext
    private let output: OutputChoice?
    private let configuration: PlayerStateMachine.Configuration
    private let console: AlarmConsole
    private let state = Mutex(State())
    private let ended: AsyncStream<Void>
    private let endedContinuation: AsyncStream<Void>.Continuation

    private struct State {
        var runner: AlarmRunner?
        var session: PlaybackSession?
        var consumer: Task<Void, Never>?
        var cancelled = false
    }

    package init(library: LibraryContext, output: OutputChoice?, configuration: PlayerStateMachine.Configuration, console: AlarmConsole) {
        self.library = library
        self.output = output
        self.configuration = configuration
        self.console = console
        (ended, endedContinuation) = AsyncStream.makeStream(of: Void.self)
    }

    /// Waits for the alarm, sounds it at each of its times, and returns once it is cancelled.
    package func run(_ alarm: Alarm, zone: TimeZone, wall: AlarmWallClock) async {
        let console = self.console
        let runner = AlarmRunner(alarm: alarm, timeZone: zone, host: self, wall: wall, logger: CommandLog.logger) { console.tell($0) }
        state.withLock { $0.runner = runner }
        PlaybackSession.onSignals { [self] in Task { await self.cancel() } }
        forwardCommands()
        await runner.start()
        console.note(AlarmTexts.string("cancelHint", in: .current))
        for await _ in ended { break }
    }

    /// Cancels the alarm, fades out what it plays and ends `run`.
    private func cancel() async {
        let (runner, session, consumer) = state.withLock { s in
            s.cancelled = true
            return (s.runner, s.session, s.consumer)
        }
        await runner?.cancel()
        if let session {
            if await session.player.state.allows(.stop) { try? await session.player.stop() } else { await session.player.shutdown() }
            await consumer?.value
        }
        endedContinuation.yield()
    }

    // MARK: AlarmHost

    package func player() async throws(PlaybackError) -> AudioPlayer {
        if let session = state.withLock({ $0.session }) { return session.player }
        var services = TonearmPlayer.Services(network: library.network)
        services.logger = CommandLog.logger
        services.analytics = library.analytics
        let (session, notice) = try await PlaybackSession.open(asked: output, fast: false, configuration: configuration, services: services)
        if let notice { FileHandle.standardError.write(Data(notice.line(in: .current).utf8)) }
        let consumer = Task { await self.follow(session) }
        state.withLock {
            $0.session = session
            $0.consumer = consumer
        }
        return session.player
    }

    package func replacement(for source: Alarm.Source) async throws(PlaybackError) -> PlayerEvent.Replacement {
        try library.alarmReplacement(for: source)
    }

    // MARK: The session while it is open

    /// The session's one consumer of updates: shown, handed to the alarm, and watched for the end.
    private func follow(_ session: PlaybackSession) async {
        let player = session.player
        let bridge = MPRISBridge.start(player: player, quit: { Task(executorPreference: player.executor) { try? await player.stop() } })
        let runner = state.withLock { $0.runner }
        let console = self.console
        await player.consumeUpdates { updates in
            var lastState: PlayerState.Name?
            var started = false
            for await update in updates {
                console.show(update, lastState: &lastState)
                await runner?.observe(update)
                bridge?.observe(update)
                guard case .state(let state, _, _) = update else { continue }
                if state.name != .idle { started = true }
                if await Self.isOver(state, started: started, runner: runner) { await player.shutdown() }
            }
        }
        bridge?.stop()
        await session.finish()
        state.withLock {
            $0.session = nil
            $0.consumer = nil
        }
    }

    /// The playback is over when it stopped or ended, or failed while the alarm no longer
    /// decides about it (while it does, a failure makes it play the tone).
    private static func isOver(_ state: PlayerState, started: Bool, runner: AlarmRunner?) async -> Bool {
        switch state {
        case .finished: return true
        case .idle: return started
        case .failed: return await !(runner?.isSounding ?? false)
        default: return false
        }
    }

    /// stdin's lines, for the whole process: each is a player command for the session that is
    /// open, if any. The end of input changes nothing: the alarm still waits.
    private func forwardCommands() {
        Task.detached { [self] in
            for await line in HeadlessInput.lines() {
                guard let player = state.withLock({ $0.session?.player }) else { continue }
                guard let command = HeadlessInput.parse(line) else {
                    if !line.trimmingCharacters(in: .whitespaces).isEmpty {
                        FileHandle.standardError.write(Data("tonearm: unknown command: \(TextSanitizer.singleLine(line, maxLength: 80))\n".utf8))
                    }
                    continue
                }
                let current = await player.state
                guard let intent = command.intent(in: current, position: await player.currentPosition, loudness: await player.loudness) else {
                    let refused = PlaybackError.invalidTransition(command.action, in: current.name)
                    FileHandle.standardError.write(Data("tonearm: \(refused.message(in: Language.current))\n".utf8))
                    continue
                }
                do throws(PlaybackError) {
                    try await player.send(intent)
                } catch {
                    FileHandle.standardError.write(Data("tonearm: \(error.message(in: Language.current))\n".utf8))
                }
            }
        }
    }
}
