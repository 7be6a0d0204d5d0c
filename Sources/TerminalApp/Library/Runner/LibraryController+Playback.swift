import AudioEngine
import Foundation
import Library
import LibraryKit
import MPRIS
import PlayerCore
import PlayerKit

/// The app's one player: its start, shared by every Enter that comes while it runs, its session,
/// the task feeding its updates, and what records the item playing.
struct PlayerSlot: Sendable {
    var starting: Task<AudioPlayer, any Error>?
    var session: PlaybackSession?
    /// The task that feeds the player's updates to the screen and the recorders.
    var feeding: Task<Void, Never>?
    /// Keeps the queue in step, or syncs an episode's place, from the updates; nil for a station
    /// or a session.
    var recorder: (@Sendable (PlayerUpdate) -> Void)?
}

extension LibraryController {
    /// What a row plays, read from the library (or a session's file).
    func resolve(_ target: PlayTarget) -> LibraryEvent {
        switch target {
        case .episode(let id, let start):
            .episodeResolved(id, Result { () throws(PlaybackError) in try library.episodeToPlay(id: id, from: start) })
        case .session(let path):
            .sessionResolved(Result { () throws(PlaybackError) in try SessionLoader.request(for: path) })
        case .queue(let entry):
            .queueResolved(Result { () throws(PlaybackError) in try library.queueToPlay(from: entry) })
        case .soundbite(let id, let number):
            .soundbiteResolved(
                Result { () throws(PlaybackError) in
                    let record = try library.store.episode(id: id)
                    guard record.soundbites.indices.contains(number - 1) else {
                        throw PlaybackError(.notInLibrary, underlying: "the episode has \(record.soundbites.count) soundbites, not \(number)")
                    }
                    let bite = record.soundbites[number - 1]
                    return (try library.episodeToPlay(id: id, from: bite.start), clip: bite.duration)
                })
        }
    }

    /// Starts `playback` on the app's one player (made on first use), with the recorder for what
    /// it is, at its podcast's speed (anything else at the default); a clip at 1x with its sleep
    /// timer, and nothing recorded.
    func play(_ playback: Playback) {
        let observe: (@Sendable (PlayerUpdate) -> Void)?
        if let queue = playback.queue {
            // The queue plays part after part (a session with layers is a part of its own).
            let parts = QueuePlayback(
                library: library, plan: queue, places: assembly.observers.places, logger: logger,
                start: { [self] request in
                    guard let player = self.playback.withLock({ $0.session })?.player else { return }
                    do throws(PlaybackError) { try await self.assembly.replace(with: .play(request), on: player) } catch {
                        self.dispatch(.queueEntryFailed(error))
                    }
                },
                skipped: { [self] _, error in self.dispatch(.queueEntryFailed(error)) })
            observe = { parts.observe($0) }
        } else if let episode = playback.episode {
            assembly.observers.places.follow(playback.replacement, episode: episode)
            observe = { [self] update in
                // Where the listener stopped goes to their other devices.
                switch update {
                case .notice(.savePosition, _), .notice(.trackFinished, _): Task { await self.syncQuietly() }
                default: break
                }
            }
        } else {
            observe = nil
        }
        self.playback.withLock { $0.recorder = observe }
        let podcast = playback.episode.flatMap { try? library.store.episode(id: $0).podcastID }
        assembly.observers.settings.use(podcast: podcast)
        let speed = playback.clip != nil ? .normal : ListeningSettings.savedSpeed(in: library.store, podcast: podcast) ?? .normal
        Task {
            do throws(PlaybackError) {
                let player = try await self.player()
                if await player.speed != speed { try await player.send(.setSpeed(.to(speed))) }
                try await player.send(.setSilenceTrimming(SilenceTrimmingSetting.isOn(in: self.library.store, podcast: podcast)))
                try await self.assembly.replace(with: playback.replacement, on: player)
                if let clip = playback.clip { try await player.send(.setSleepTimer(.clip(clip))) }
            } catch {
                self.dispatch(.playFailed(error, operation: playback.operation))
            }
        }
    }

    /// Sends `intent` to the player, when there is one.
    func send(_ intent: PlayerEvent) {
        guard let player = playback.withLock({ $0.session })?.player else { return }
        Task(executorPreference: player.executor) { try? await player.send(intent) }
    }

    /// The app's one player. Made once: a second Enter while the first is still starting waits for
    /// the same player rather than starting another beside it; a failed start is tried again on
    /// the next Enter.
    private func player() async throws(PlaybackError) -> AudioPlayer {
        let starting = playback.withLock { slot in
            if let current = slot.starting { return current }
            let made = Task { () async throws -> AudioPlayer in try await self.startPlayer() }
            slot.starting = made
            return made
        }
        do {
            return try await starting.value
        } catch {
            playback.withLock { $0.starting = nil }
            throw PlaybackError.from(error)
        }
    }

    private func startPlayer() async throws(PlaybackError) -> AudioPlayer {
        let chosen: OutputChoice
        if let output { chosen = output } else { chosen = try await OutputChoice.automatic().choice }
        // The volume, speed and levelling the listener last set; a change is kept for the next run.
        // Silence trimming is set per item as it starts (it is the podcast's own).
        var configuration = PlayerStateMachine.Configuration()
        ListeningSettings.applySaved(in: library.store, podcast: nil, to: &configuration)
        let made = try await PlaybackSession(
            output: chosen, configuration: configuration, services: assembly.services(TonearmPlayer.Services(connectivity: connectivity)))
        playback.withLock { $0.session = made }
        let player = made.player
        let mpris = MPRISBridge.start(
            player: player, quit: { [self] in self.dispatch(.quit) },
            warn: { warning in laterWarnings.withLock { $0.append(warning) } })
        let feeding = feedUpdates(of: player, to: mpris)
        playback.withLock { $0.feeding = feeding }
        return player
    }
}
