import Foundation
import Library
import LibraryKit
import Logging
import MPDProtocol
import PlayerKit
import Presentation
import Synchronization

/// The player and the library as an MPD server shows them: the queue (MPD's current playlist)
/// with its options, `status` and `currentsong` told from the player's own updates, the library
/// browsable as directories. The one place MPD's commands meet the player: each one becomes an
/// intent the player's state machine decides on, and what the player then does is what clients
/// are told.
///
/// Feed it every update of the player, in order (`observe`), from the front end's one reader.
package actor MPDPlayerBackend: MPDBackend {
    let player: AudioPlayer
    let catalog: MPDCatalog
    /// The player's wiring to the library: songs that are episodes are named to its places, and
    /// requests are prepared by it.
    let assembly: LibraryPlayerAssembly
    let logger: Logger
    let language: Language
    /// The outputs `outputs` lists (the main one first).
    let outputs: [OutputSwitch]
    /// The curve of crossfades between songs; their length is the queue's `crossfade` option.
    let curve: FadeCurve
    let startedAt = Date()
    /// The stored playlists' folder (`MPDPlayerBackend+StoredPlaylists`).
    let playlists: MPDPlaylistStore
    /// The music index's `update` jobs (`MPDPlayerBackend+Database`).
    let databaseUpdates = MPDDatabaseUpdates()
    /// The watch on the music directory, while the daemon keeps the index current.
    let musicWatch = Mutex<MusicDirectoryWatch?>(nil)

    var queue: MPDQueue
    /// The indexed songs kept between database commands (`databaseSongs`).
    var songCache: SongCache?
    var view = MPDPlayerView()
    /// Seconds of audio the player has written, for `stats`.
    var audioTime = 0.0
    /// The song a client just started, until the player's updates reach it: the updates still in
    /// flight about the song it replaces must not make that one current again.
    var startingSong: Int?
    /// A client's `stop` is on its way: the song stays current once the player finishes, as MPD
    /// keeps it (the end of the queue leaves none).
    var stopping = false
    /// Whether the player's request played to its own end: then the queue goes on with the song
    /// after it, which the request stopped short of (a session with layers plays alone).
    var requestEnd = RequestEndWatch(lastItemID: nil)

    private let broadcast = SubsystemBroadcast()
    private let updates: AsyncStream<PlayerUpdate>.Continuation

    package init(
        player: AudioPlayer, catalog: MPDCatalog, assembly: LibraryPlayerAssembly, outputs: [OutputSwitch], crossfade: CrossfadeSpec, logger: Logger,
        language: Language = .current, playlists: MPDPlaylistStore = MPDPlaylistStore(directory: MPDPlaylistStore.standardDirectory()),
        levelling: LoudnessMode = .off
    ) {
        self.playlists = playlists
        self.player = player
        self.catalog = catalog
        self.assembly = assembly
        self.outputs = outputs
        self.curve = crossfade.curve
        self.logger = logger
        self.language = language
        var queue = MPDQueue()
        queue.options.crossfade = Int(crossfade.duration.rounded())
        queue.options.replayGain = MPDQueue.ReplayGainMode(levelling)
        self.queue = queue
        let (stream, continuation) = AsyncStream.makeStream(of: PlayerUpdate.self)
        updates = continuation
        Task { [weak self] in
            for await update in stream { await self?.apply(update) }
        }
    }

    /// One update of the player; call it for every update, in order.
    package nonisolated func observe(_ update: PlayerUpdate) { updates.yield(update) }

    /// Ends every client's `idle` and stops reading updates.
    package nonisolated func finish() {
        musicWatch.withLock { $0?.stop() }
        updates.finish()
        broadcast.finish()
    }

    package nonisolated func changes() -> AsyncStream<MPDSubsystem> { broadcast.stream() }

    /// Tells clients waiting in `idle`.
    func changed(_ subsystems: Set<MPDSubsystem>) { broadcast.send(subsystems) }

    package nonisolated var commandSpecs: [MPDCommandSpec] { Self.commands.specs }

    /// The tags songs carry, which `tagtypes` lists and each connection may turn off.
    package nonisolated var tagTypes: [String] { MPDStatus.tagTypes }

    /// Every command, one entry per command, from the table of its group.
    static let commands = MPDCommandTable([
        playbackCommands, queueCommands, queueSearchCommands, infoCommands, outputCommands, storedPlaylistCommands, databaseCommands, pictureCommands,
        stickerCommands, fileCommands, fingerprintCommands, commentCommands,
    ])

    package func execute(_ command: MPDCommand) async throws(MPDAck) -> MPDResponse {
        guard let entry = Self.commands.entry(named: command.name) else { throw MPDAck(.unknown, "unknown command \"\(command.name)\"") }
        do {
            return try await entry.handler(self, MPDArguments(command))
        } catch {
            logger.debug("MPD command refused", metadata: ["command": "\(command.name)", "ack": "\(error.code.rawValue)"])
            throw error
        }
    }

    /// A player intent, its refusal told as MPD tells a player error.
    func send(_ intent: PlayerEvent) async throws(MPDAck) {
        do { try await player.send(intent) } catch { throw ack(for: error) }
    }

    /// A refusal of the player's as the client is told it, in the listener's language.
    func ack(for error: PlaybackError) -> MPDAck {
        MPDAck(.playerSync, "\(error.title(in: language)): \(error.message(in: language))")
    }

    // MARK: Updates

    private func apply(_ update: PlayerUpdate) async {
        audioTime = update.audioTime
        var subsystems = view.apply(update)
        let requestEnded = requestEnd.observe(update)
        switch update {
        case .state(let state, _, _):
            let before = queue.currentID
            let continuation = requestEnded ? queue.currentID.flatMap { queue.upcoming(after: $0).first } : nil
            subsystems.formUnion(follow(state))
            if let continuation, queue.position(ofID: continuation) != nil {
                logger.info("MPD: the queue goes on after a request of its own", metadata: ["position": "\(queue.position(ofID: continuation) ?? -1)"])
                do { try await play(songID: continuation) } catch {
                    logger.warning("MPD: the next song could not start", metadata: ["ack": "\(error.code.rawValue)"])
                }
            } else if let current = queue.currentID, current != before {
                // The player holds only the next few songs: tell it what follows the new one.
                do { try await sendUpcoming() } catch {
                    logger.warning("MPD: the songs after the current one could not be queued", metadata: ["ack": "\(error.code.rawValue)"])
                }
            }
        default:
            break
        }
        changed(subsystems)
    }

    /// Moves the current song with the player: the song of the track being heard (the incoming
    /// one once a crossfade begins). At the end MPD stops with no current song; a `single
    /// oneshot` is spent; with `consume`, a song the player left leaves the queue.
    private func follow(_ state: PlayerState) -> Set<MPDSubsystem> {
        var subsystems: Set<MPDSubsystem> = []
        let heard = state.heardTrack.flatMap { MPDEntry.songID(ofTrackID: $0.id) }
        if let starting = startingSong {
            switch state.name {
            case .idle, .finished, .failed: startingSong = nil
            default:
                guard heard == starting else { return subsystems }
                startingSong = nil
            }
        }
        let left = queue.currentID
        switch state.name {
        case .finished:
            subsystems.formUnion(queue.finished(keepingCurrent: stopping))
            stopping = false
        case .idle:
            break
        default:
            guard let heard, heard != left else { return subsystems }
            subsystems.formUnion(queue.started(heard))
        }
        // Consume: the queue's one rule says which song leaves.
        subsystems.formUnion(queue.consume(leaving: left))
        if left != queue.currentID {
            logger.info("MPD current song", metadata: ["position": "\(queue.currentPosition.map(String.init) ?? "none")"])
        }
        return subsystems
    }

    /// A song's items with this song's own track ids (`MPDEntry.items(songID:play:)`); an
    /// episode's are named to the library's places, which keep where it was heard.
    func songItems(of entry: MPDEntry, songID: Int, play: Int = 0) -> [QueueItem] {
        let items = entry.items(songID: songID, play: play, albumLoudness: measuredAlbumLoudness(of: entry))
        if let episode = entry.episodeID {
            for item in items { assembly.observers.places.follow(trackID: item.track.id, episode: episode) }
        }
        return items
    }
}

extension PlayerState {
    /// The track that is "the song" to a listener: the incoming one once a crossfade is heard
    /// (as the player counts its current item), the outgoing one while the next is only loading.
    var heardTrack: Track? { name == .crossfading || name == .crossfadePaused ? nextTrack : currentTrack }
}
