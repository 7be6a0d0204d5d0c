import AudioEngine
import Foundation
import PlayerCore
import Services
import Synchronization

/// Connects one player to MPRIS: every update refreshes what clients see; every client command
/// becomes the intent the state allows (nothing else). Works the same under the terminal screens
/// and headless.
final class MPRISBridge: Sendable {
    private struct Seen {
        var state: PlayerState = .idle
        var metadata: NowPlayingMetadata?
        var position: Double?
        var duration: Double?
        /// A seek was asked for: the next position is announced with Seeked.
        var seekPending = false
    }

    private let service: MPRISService
    private let seen = Mutex(Seen())
    private let replacing = Mutex(false)

    /// True while an OpenUri stops the current playback to start another: the `idle` in between
    /// is not the end of the program.
    var isReplacing: Bool { replacing.withLock { $0 } }

    private init(service: MPRISService) {
        self.service = service
    }

    /// Starts MPRIS for `player`; without a session bus it says so through `warn` (stderr by
    /// default; a full-screen caller keeps it for later, so it does not scribble over the screen)
    /// and returns nil: playback goes on without it. `quit` is the client's Quit.
    static func start(
        player: AudioPlayer, quit: @escaping @Sendable () -> Void,
        warn: (String) -> Void = { FileHandle.standardError.write(Data("tonearm: \($0)\n".utf8)) }
    ) -> MPRISBridge? {
        let bridge = Mutex<MPRISBridge?>(nil)
        let started = MPRISService.start { command in
            guard let self = bridge.withLock({ $0 }) else { return }
            Task { await self.perform(command, on: player, quit: quit) }
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
    func observe(_ update: PlayerUpdate) {
        let (state, seeked) = seen.withLock { seen -> (MPRISState, Double?) in
            var seeked: Double?
            switch update {
            case .state(let state, _, _):
                if state.currentTrack?.id != seen.state.currentTrack?.id { seen.metadata = nil }
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
            }
            let state = MPRISState(
                state: seen.state, metadata: seen.metadata, position: seen.position, duration: seen.duration,
                artFile: seen.metadata?.artworkFile)
            return (state, seeked)
        }
        service.update(state)
        if let seeked { service.seeked(to: seeked) }
    }

    func stop() { service.stop() }

    private func perform(_ command: MPRISService.Command, on player: AudioPlayer, quit: @Sendable () -> Void) async {
        let state = await player.state
        func first(_ actions: [PlayerAction]) -> PlayerAction? { actions.first(where: state.allows) }
        let intent: PlayerEvent?
        switch command {
        case .play: intent = first([.resume, .retry]).map(Self.event)
        case .pause: intent = first([.pause]).map(Self.event)
        case .playPause: intent = first([.pause, .resume, .retry]).map(Self.event)
        case .stop: intent = first([.stop]).map(Self.event)
        case .next: intent = first([.skip]).map(Self.event)
        case .previous: intent = nil
        case .quit:
            quit()
            intent = nil
        case .seek(let offset):
            let position = seen.withLock { $0.position } ?? 0
            intent = state.allows(.seek) ? .seek(to: max(0, position + offset)) : nil
        case .setPosition(let position, let trackID):
            let current = state.currentTrack.map { MPRISState.objectPath(for: $0.id) }
            intent = state.allows(.seek) && current == trackID && position >= 0 ? .seek(to: position) : nil
        case .openURI(let uri):
            intent = Self.request(for: uri).map { .play($0) }
        }
        guard let intent else { return }
        switch intent {
        case .seek:
            seen.withLock { $0.seekPending = true }
            try? await player.send(intent)
        case .play:
            replacing.withLock { $0 = true }
            try? await player.start(replacingCurrent: intent)
            replacing.withLock { $0 = false }
        default:
            try? await player.send(intent)
        }
    }

    private static func event(_ action: PlayerAction) -> PlayerEvent {
        switch action {
        case .pause: .pause
        case .resume: .resume
        case .retry: .retry
        case .stop: .stop
        case .skip: .skip
        case .retryNow: .retryNow
        case .cancelRetry: .cancelRetry
        case .reset: .reset
        case .play, .seek: .resume
        }
    }

    /// OpenUri: a file or an http(s) address (a live stream, as `tonearm play URL` treats it).
    static func request(for uri: String) -> PlayRequest? {
        guard let url = URL(string: uri), let scheme = url.scheme?.lowercased(), ["file", "http", "https"].contains(scheme) else { return nil }
        let name = url.isFileURL ? url.deletingPathExtension().lastPathComponent : (url.host ?? "stream")
        let track = Track(
            id: "mpris:\(url.lastPathComponent)", url: url, kind: url.isFileURL ? .file : .liveStream, title: name,
            duration: url.isFileURL ? FileDurationProbe.duration(of: url) : nil)
        return PlayRequest(track: track)
    }
}
