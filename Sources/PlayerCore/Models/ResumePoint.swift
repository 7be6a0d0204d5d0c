import Foundation

/// Everything a Retry needs to resume exactly where playback stopped (the failed state
/// keeps episode, position and duration).
public struct ResumePoint: Sendable, Hashable, Codable {
    public let track: Track
    /// Seconds into the track; 0 for live streams, which resume at the live edge.
    public let position: TimeInterval
    public let duration: TimeInterval?

    public init(track: Track, position: TimeInterval, duration: TimeInterval? = nil) {
        self.track = track
        self.position = track.isLive ? 0 : max(0, position.isFinite ? position : 0)
        self.duration = duration ?? track.duration
    }
}
