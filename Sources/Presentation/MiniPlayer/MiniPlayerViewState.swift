import Foundation
import PlayerCore

/// The one-line mini player at the bottom of library screens.
public struct MiniPlayerViewState: Sendable, Hashable, Codable {
    public let title: String
    public let subtitle: String?
    /// Short status (`statusText`), or the error form while failed.
    public let status: String
    public let indicatorColor: IndicatorColor
    /// Retry while failed and retryable; nothing while failed otherwise; else the play/pause toggle.
    public let primaryControl: ControlViewState?
    /// position / duration in 0...1 when known.
    public let progressFraction: Double?
    public let isLive: Bool
    public let isFailed: Bool
    /// "Playback failed — r to retry" or "Playback failed" while failed.
    public let errorText: String?

    public init(state: PlayerState, context: PlaybackContext) {
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
    public var line: String { "\(title) — \(status)" }
}
