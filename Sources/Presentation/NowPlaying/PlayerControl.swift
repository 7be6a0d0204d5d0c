import Foundation
import PlayerCore

/// The controls of the expanded player, in their fixed display order.
package enum PlayerControl: String, Sendable, Hashable, Codable, CaseIterable {
    /// Play, pause or resume: whichever of them the state allows.
    case playPause
    case stop
    case skip
    case seekBackward
    case seekForward
    /// Reconnect countdown: try now.
    case retryNow
    /// Reconnect countdown: stop trying.
    case cancelRetry
    /// Retry a recoverable failure at its resume point.
    case retry
    /// Clear a finished or failed player back to idle.
    case reset

    /// Seconds a seek control jumps.
    package static let seekBackwardSeconds: TimeInterval = 15
    package static let seekForwardSeconds: TimeInterval = 30

    /// Controls that only make sense in a few states; a front end may show them only when enabled.
    /// (A property of the control, not of the state: enabling still comes from `allowedActions`.)
    package var isContextual: Bool {
        switch self {
        case .retryNow, .cancelRetry, .retry, .reset: true
        case .playPause, .stop, .skip, .seekBackward, .seekForward: false
        }
    }
}

/// One control as shown: what it sends, its label and whether the state accepts it.
package struct ControlViewState: Sendable, Hashable, Codable {
    package let control: PlayerControl
    /// The intent a press sends.
    package let action: PlayerAction
    /// For seek controls: the offset in seconds (negative = back).
    package let seekOffset: TimeInterval?
    package let title: String
    package let icon: Icon
    /// Exactly `state.allows(action)`.
    package let isEnabled: Bool

    package init(
        control: PlayerControl, action: PlayerAction, seekOffset: TimeInterval? = nil, title: String, icon: Icon,
        isEnabled: Bool
    ) {
        self.control = control
        self.action = action
        self.seekOffset = seekOffset
        self.title = title
        self.icon = icon
        self.isEnabled = isEnabled
    }

    /// `control` for `state`. Enabled only when `state.allowedActions` holds its action; no other
    /// rule. The play/pause toggle sends the first allowed of pause, resume, play; when none is
    /// allowed it shows (disabled) Pause while sound plays and Play otherwise.
    package init(_ control: PlayerControl, for state: PlayerState, in language: Language) {
        let allowed = state.allowedActions
        func make(_ action: PlayerAction, _ key: UIString, _ icon: Icon, offset: TimeInterval? = nil, arg: Int? = nil)
            -> ControlViewState
        {
            let title = arg.map { UIStrings.format(key, in: language, $0) } ?? UIStrings.text(key, in: language)
            return ControlViewState(
                control: control, action: action, seekOffset: offset, title: title, icon: icon,
                isEnabled: allowed.contains(action))
        }
        switch control {
        case .playPause:
            let action =
                [PlayerAction.pause, .resume, .play].first(where: allowed.contains) ?? (state.isActive ? .pause : .play)
            switch action {
            case .pause: self = make(.pause, .controlPause, Icon(symbolName: "pause.fill", glyph: "⏸"))
            case .resume: self = make(.resume, .controlResume, Icon(symbolName: "play.fill", glyph: "▶"))
            default: self = make(.play, .controlPlay, Icon(symbolName: "play.fill", glyph: "▶"))
            }
        case .stop:
            self = make(.stop, .controlStop, Icon(symbolName: "stop.fill", glyph: "■"))
        case .skip:
            self = make(.skip, .controlSkip, Icon(symbolName: "forward.end.fill", glyph: "⏭"))
        case .seekBackward:
            let s = PlayerControl.seekBackwardSeconds
            self = make(
                .seek, .controlSeekBackward, Icon(symbolName: "gobackward.15", glyph: "«"), offset: -s,
                arg: Int(s))
        case .seekForward:
            let s = PlayerControl.seekForwardSeconds
            self = make(
                .seek, .controlSeekForward, Icon(symbolName: "goforward.30", glyph: "»"), offset: s,
                arg: Int(s))
        case .retryNow:
            self = make(.retryNow, .controlRetryNow, .retry)
        case .cancelRetry:
            self = make(.cancelRetry, .controlCancelRetry, .dismiss)
        case .retry:
            self = make(.retry, .controlRetry, .retry)
        case .reset:
            self = make(.reset, .controlReset, Icon(symbolName: "xmark.circle", glyph: "⌫"))
        }
    }

    /// Every control in display order for `state`.
    package static func all(for state: PlayerState, in language: Language) -> [ControlViewState] {
        PlayerControl.allCases.map { ControlViewState($0, for: state, in: language) }
    }
}
