import AudioEngine
import Foundation
import Media
import PlayerCore
import Synchronization

/// Connects one player to MPRIS: every update refreshes what clients see; every client command
/// becomes the intent the state allows (`PlayerCommand`, the rule every front end shares). Works
/// the same under the terminal screens and headless.
package final class MPRISBridge: Sendable {
    private struct Seen {
        var state: PlayerState = .idle
        var metadata: NowPlayingMetadata?
        var position: Double?
        var duration: Double?
        var volume = Volume.full
        var speed = PlaybackSpeed.normal
        /// The sleep timer, the player's time it was told at and when that was, for its countdown.
        var sleep: (timer: SleepTimer, now: PlayerTime, received: Date)?
        var loudness: (levelling: LoudnessLevelling, gain: Double?)?
        var connection: ConnectionQuality?
        /// The layers of the session that plays.
        var layers: SessionLayersStatus?
        /// A seek was asked for: the next position is announced with Seeked.
        var seekPending = false
        /// The cover of the local file that plays (`CoverArt.artworkFile`), looked for once when
        /// it starts.
        var localArt: URL?
    }

    private let service: MPRISService
    private let seen = Mutex(Seen())

    private init(service: MPRISService) {
        self.service = service
    }

    /// Starts MPRIS for `player`; without a session bus it says so through `warn` (stderr by
    /// default; a full-screen caller keeps it for later, so it does not scribble over the screen)
    /// and returns nil: playback goes on without it. `quit` is the client's Quit.
    package static func start(
        player: AudioPlayer, quit: @escaping @Sendable () -> Void,
        warn: (String) -> Void = { FileHandle.standardError.write(Data("tonearm: \($0)\n".utf8)) }
    ) -> MPRISBridge? {
        let bridge = Mutex<MPRISBridge?>(nil)
        let started = MPRISService.start { command in
            guard let self = bridge.withLock({ $0 }) else { return }
            Task(executorPreference: player.executor) { await self.perform(command, on: player, quit: quit) }
        }
        switch started {
        case .success((let service, _)):
            let made = MPRISBridge(service: service)
            bridge.withLock { $0 = made }
            return made
        case .failure(let error):
            warn("MPRIS is off (\(error.underlying ?? "no session bus")); playing on.")
            return nil
        }
    }

    /// Sees every player update, in order.
    package func observe(_ update: PlayerUpdate) {
        let (state, seeked) = seen.withLock { seen -> (MPRISState, Double?) in
            var seeked: Double?
            switch update {
            case .state(let state, _, _):
                if state.currentTrack?.id != seen.state.currentTrack?.id {
                    seen.metadata = nil
                    seen.connection = nil
                    seen.localArt = state.currentTrack.flatMap(Self.localArtwork(for:))
                }
                seen.state = state
            case .position(let seconds, let duration, _):
                seen.position = seconds
                seen.duration = duration
                if seen.seekPending {
                    seen.seekPending = false
                    seeked = seconds
                }
            case .notice(.metadata(let metadata), _):
                seen.metadata = metadata
            case .notice:
                break
            case .loudness(let levelling, let gain, _):
                seen.loudness = (levelling, gain)
            case .connection(let quality, _):
                seen.connection = quality
            case .volume(let volume, _):
                seen.volume = volume
            case .speed(let speed, _):
                seen.speed = speed
            case .sleepTimer(let timer, _, let now):
                seen.sleep = timer.map { ($0, now, Date()) }
            case .layers(let status, _):
                seen.layers = status
            }
            let sleepIn = seen.sleep.flatMap { sleep in sleep.timer.remaining(at: sleep.now + Date().timeIntervalSince(sleep.received)) }
            let state = MPRISState(
                state: seen.state, metadata: seen.metadata, position: seen.position, duration: seen.duration,
                artFile: seen.metadata?.artworkFile ?? seen.localArt, volume: seen.volume, sleepIn: sleepIn, speed: seen.speed,
                loudness: seen.loudness, connection: seen.connection, layers: seen.layers)
            return (state, seeked)
        }
        service.update(state)
        if let seeked { service.seeked(to: seeked) }
    }

    package func stop() { service.stop() }

    /// A local file's cover as an image file: the folder's image, or the embedded picture written
    /// to the artwork cache. Only for files whose tags were read, so a built-in sound or a
    /// session's stage is never opened again here.
    static func localArtwork(for track: Track) -> URL? {
        guard track.kind == .file, track.url.isFileURL, track.tags != nil else { return nil }
        return CoverArt.artworkFile(for: track.url)
    }

    private func perform(_ command: MPRISService.Command, on player: AudioPlayer, quit: @Sendable () -> Void) async {
        if command == .quit { return quit() }
        let state = await player.state
        let current = state.currentTrack.map { MPRISState.objectPath(for: $0.id) }
        let position = seen.withLock { $0.position }
        guard let intent = command.playerCommand(currentTrack: current)?.intent(in: state, position: position) else { return }
        if case .seek = intent { seen.withLock { $0.seekPending = true } }
        try? await player.send(intent)
    }

    /// OpenUri: a file or an http(s) address (a live stream, as `tonearm play URL` treats it).
    package static func request(for uri: String) -> PlayRequest? {
        guard let url = URL(string: uri), let scheme = url.scheme?.lowercased(), ["file", "http", "https"].contains(scheme) else { return nil }
        let id = "mpris:\(url.lastPathComponent)"
        if url.isFileURL {
            let tags = try? TagReader.read(url)
            let duration = tags?.audio.duration ?? FileDurationProbe.duration(of: url)
            return PlayRequest(track: .localFile(id: id, url: url, tags: tags, duration: duration))
        }
        return PlayRequest(track: Track(id: id, url: url, kind: .liveStream, title: url.host ?? "stream"))
    }
}

extension MPRISService.Command {
    /// The front-end command this call stands for: nil for Previous (there is no history), Quit
    /// (the program's, not the player's), a SetPosition for a track that is no longer current and
    /// an OpenUri Tonearm cannot open.
    /// - Parameter currentTrack: the object path of the track playing now.
    package func playerCommand(currentTrack: String?) -> PlayerCommand? {
        switch self {
        case .play: .play
        case .pause: .pause
        case .playPause: .playPause
        case .stop: .stop
        case .next: .next
        case .previous, .quit: nil
        case .seek(let offset): .seekBy(offset)
        case .setPosition(let position, let trackID): trackID == currentTrack ? .seekTo(position) : nil
        case .openURI(let uri): MPRISBridge.request(for: uri).map { .open(.play($0)) }
        case .setVolume(let level): .volume(.to(Volume(level)))
        case .setRate(let rate): rate == 0 ? .pause : .speed(.to(PlaybackSpeed(rate)))
        }
    }
}
