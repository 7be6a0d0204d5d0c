import Foundation
import PlayerCore

/// The error view's Retry Playback button, with where a retry resumes.
package struct RetryButtonState: Sendable, Hashable, Codable {
    package static let accessibilityIdentifier = "ExpandedPlayer.RetryButton"

    /// "Retry Playback" / "Повторить".
    package let label: String
    package let icon: Icon
    package let accessibilityIdentifier: String
    /// The intent a press sends (always `.retry`).
    package let action: PlayerAction
    /// Seconds into the track where the retry resumes (0 for a live stream: the live edge).
    package let resumePosition: TimeInterval?
    package let resumeDuration: TimeInterval?
    /// "Retry resumes at 12:34", "Retry rejoins the live broadcast" or "Retry starts from the beginning".
    package let resumeText: String?

    package init(resumePoint: ResumePoint?, language: Language) {
        label = UIStrings.text(.retryPlayback, in: language)
        icon = .retry
        accessibilityIdentifier = Self.accessibilityIdentifier
        action = .retry
        resumePosition = resumePoint?.position
        resumeDuration = resumePoint?.duration
        resumeText = resumePoint.map { point in
            if point.track.isLive { return UIStrings.text(.retryRejoinsLive, in: language) }
            if point.position > 0 { return UIStrings.format(.retryResumesAt, in: language, TimeText.clock(point.position)) }
            return UIStrings.text(.retryStartsOver, in: language)
        }
    }
}
