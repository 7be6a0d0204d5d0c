import Foundation
import PlayerCore

/// The one-line mini player at the bottom of library screens.
package struct MiniPlayerViewState: Sendable, Hashable, Codable {
    package let title: String
    package let subtitle: String?
    /// Short status (`statusText`), or the error form while failed.
    package let status: String
    package let indicatorColor: IndicatorColor
    /// Retry while failed and retryable; nothing while failed otherwise; else the play/pause toggle.
    package let primaryControl: ControlViewState?
    /// position / duration in 0...1 when known.
    package let progressFraction: Double?
    package let isLive: Bool
    package let isFailed: Bool
    /// "Playback failed — r to retry" or "Playback failed" while failed.
    package let errorText: String?

    package init(state: PlayerState, context: PlaybackContext) {
        let language = context.language
        let labels = TrackLabels(track: state.currentTrack, context: context)
        title = labels.title
        subtitle = labels.subtitle
        indicatorColor = state.indicatorColor
        let progress = ProgressViewState(state: state, context: context)
        progressFraction = progress?.fraction
        isLive = state.currentTrack?.isLive ?? false
        if case .failed = state {
            isFailed = true
            let retryable = state.allows(.retry)
            errorText = UIStrings.text(retryable ? .miniPlayerFailedRetry : .miniPlayerFailed, in: language)
            status = errorText ?? ""
            primaryControl = retryable ? ControlViewState(.retry, for: state, in: language) : nil
        } else {
            isFailed = false
            errorText = nil
            status = state.statusText(in: language, now: context.now)
            primaryControl = ControlViewState(.playPause, for: state, in: language)
        }
    }

    /// "Title — Status", the whole compact line.
    package var line: String { "\(title) — \(status)" }
}
