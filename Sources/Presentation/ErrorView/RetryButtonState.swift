import Foundation
import PlayerCore

/// The error view's Retry Playback button, with where a retry resumes.
public struct RetryButtonState: Sendable, Hashable, Codable {
    public static let accessibilityIdentifier = "ExpandedPlayer.RetryButton"

    /// "Retry Playback" / "Повторить".
    public let label: String
    public let icon: Icon
    public let accessibilityIdentifier: String
    /// The intent a press sends (always `.retry`).
    public let action: PlayerAction
    /// Seconds into the track where the retry resumes (0 for a live stream: the live edge).
    public let resumePosition: TimeInterval?
    public let resumeDuration: TimeInterval?
    /// "Retry resumes at 12:34", "Retry rejoins the live broadcast" or "Retry starts from the beginning".
    public let resumeText: String?

    public init(resumePoint: ResumePoint?, language: Language) {
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
