import AudioEngine
import Foundation
import PlayerCore
import Presentation
import TerminalUI

/// What Now Playing knows, collected from the player's updates: the latest state (with the
/// player-clock time it was published at), position, metadata and the inline error. It records
/// facts only; every decision about what they mean is Presentation's.
struct NowPlayingModel: Sendable {
    var state: PlayerState = .idle
    var stateNow: PlayerTime?
    var stateReceived = Date()
    var position: Double?
    var duration: Double?
    var metadata: NowPlayingMetadata?
    var inlineError: PlaybackError?
    var preparingSince: Date?
    /// From the connectivity monitor; unknown without one (no banner).
    var connectivity: Connectivity = .unknown
    var started = false
    /// Bumped on every change, so the drawing loop redraws only when something changed.
    var version = 0

    mutating func apply(_ update: PlayerUpdate) {
        switch update {
        case .state(let state, _, let now):
            if state.name == .preparing, self.state.name != .preparing { preparingSince = Date() }
            if state.currentTrack?.id != self.state.currentTrack?.id { metadata = nil }
            // A new track or episode clears the old problem (seed 000: the error view clears too).
            if state.name == .preparing || state.name == .playing, self.state.name == .failed { inlineError = nil }
            self.state = state
            stateNow = now
            stateReceived = Date()
            if state.name != .idle { started = true }
        case .position(let seconds, let duration, _):
            position = seconds
            self.duration = duration
        case .notice(.metadata(let metadata), _):
            self.metadata = metadata
        case .notice(.nonFatal(let error), _), .notice(.serviceProblem(let error), _):
            inlineError = error
        case .notice:
            return
        }
        version += 1
    }

    mutating func networkChanged(online: Bool) {
        connectivity = online ? .online : .offline
        version += 1
    }

    mutating func dismissInlineError() {
        guard inlineError != nil else { return }
        inlineError = nil
        version += 1
    }

    /// The player-clock time now, for countdowns: the state's time plus the wall time since.
    var now: PlayerTime? {
        stateNow.map { $0 + Date().timeIntervalSince(stateReceived) }
    }

    /// The view state; a live stream's announced title is part of the context.
    func view(language: Language) -> NowPlayingViewState {
        let context = PlaybackContext(
            connectivity: connectivity, position: position, duration: duration, now: now, language: language, nowPlaying: metadata)
        return NowPlayingViewState(
            state: state, context: context, preparingElapsed: preparingSince.map { Date().timeIntervalSince($0) })
    }

    /// Now Playing for this model: the view state, the artwork drawn from its thumbnail with its
    /// average colour as accent, and the inline error.
    func screen(language: Language, bindings: KeyBindings, tick: Int) -> NowPlayingScreen {
        let picture = metadata?.picture
        return NowPlayingScreen(
            view: view(language: language), artwork: picture.flatMap(ArtworkPixels.init),
            accent: picture.map(TerminalColor.accent) ?? .indexed(39),
            inlineError: inlineError.map { InlineErrorViewState(error: $0, language: language) }, language: language, bindings: bindings,
            spinnerTick: tick)
    }
}
