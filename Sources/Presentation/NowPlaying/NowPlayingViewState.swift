import Foundation
import PlayerCore

/// The expanded player (Now Playing): everything it shows, as a pure function of the
/// state and its context.
package struct NowPlayingViewState: Sendable, Hashable, Codable {
    /// How long `preparing` may take before the "still connecting" hint shows (tell the
    /// user early, fail late at the 8 s connect timeout).
    package static let defaultStillConnectingThreshold: TimeInterval = 3

    package let stateName: PlayerState.Name
    package let title: String
    /// Artist, podcast or station name.
    package let subtitle: String?
    /// `state.statusText(in:now:)`.
    package let statusText: String
    /// `state.displayText(in:now:)`.
    package let displayText: String
    /// `state.indicatorColor`.
    package let indicatorColor: IndicatorColor
    /// `state.showsLoading`.
    package let showsSpinner: Bool
    /// Preparing for at least the threshold: say "Still connecting…".
    package let isStillConnecting: Bool
    package let stillConnectingText: String?
    /// "Next: X" while a crossfade is prepared, runs or is paused.
    package let nextText: String?
    package let progress: ProgressViewState?
    package let crossfade: CrossfadeViewState?
    package let reconnect: ReconnectViewState?
    /// Every control in fixed order, enabled exactly when `allowedActions` holds its action;
    /// empty while failed.
    package let controls: [ControlViewState]
    /// True only while failed: the error view replaces the controls.
    package let controlsHidden: Bool
    /// The error view: present only while failed.
    package let errorView: PlaybackErrorViewState?
    package let connectivityBanner: ConnectivityBannerState
    /// One sentence for screen readers and plain mode.
    package let spokenText: String

    /// - Parameters:
    ///   - preparingElapsed: seconds spent in `preparing` so far (the caller's clock).
    ///   - crossfadeCurve: the curve of a running crossfade (the state does not carry it); equal
    ///     power by default. A paused crossfade uses its snapshot's curve.
    package init(
        state: PlayerState,
        context: PlaybackContext,
        preparingElapsed: TimeInterval? = nil,
        stillConnectingThreshold: TimeInterval = NowPlayingViewState.defaultStillConnectingThreshold,
        crossfadeCurve: FadeCurve? = nil
    ) {
        let language = context.language
        let labels = TrackLabels(track: state.currentTrack, context: context)
        stateName = state.name
        title = labels.title
        subtitle = labels.subtitle
        statusText = state.statusText(in: language, now: context.now)
        displayText = state.displayText(in: language, now: context.now)
        indicatorColor = state.indicatorColor
        showsSpinner = state.showsLoading
        if case .preparing = state, let preparingElapsed, preparingElapsed >= stillConnectingThreshold {
            isStillConnecting = true
            stillConnectingText = UIStrings.text(.stillConnecting, in: language)
        } else {
            isStillConnecting = false
            stillConnectingText = nil
        }
        nextText = state.nextTrack.map {
            UIStrings.format(.nextUp, in: language, $0.title ?? UIStrings.text(.unknownTitle, in: language))
        }
        progress = ProgressViewState(state: state, context: context)
        crossfade = CrossfadeViewState(state: state, context: context, curve: crossfadeCurve)
        reconnect = ReconnectViewState(state: state, context: context)
        let errorView = PlaybackErrorViewState(state: state, context: context)
        self.errorView = errorView
        controlsHidden = errorView != nil
        controls = errorView != nil ? [] : ControlViewState.all(for: state, in: language)
        connectivityBanner = ConnectivityBannerState(connectivity: context.connectivity, language: language)
        spokenText = errorView?.spokenText ?? Sentences.sentence(displayText)
    }

    /// The enabled controls' actions, for key-hint bars.
    package var enabledActions: Set<PlayerAction> { Set(controls.filter(\.isEnabled).map(\.action)) }
}
