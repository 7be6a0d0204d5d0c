import Foundation
import PlayerCore

/// The progress bar: position over duration for files and episodes, LIVE for streams, and the
/// buffer fill while buffering.
package struct ProgressViewState: Sendable, Hashable, Codable {
    /// A live stream: no timeline, a LIVE badge instead.
    package let isLive: Bool
    /// "LIVE" / "ЭФИР" for live streams.
    package let liveLabel: String?
    package let position: TimeInterval?
    package let duration: TimeInterval?
    /// position / duration in 0...1; nil when either is unknown (and always for live streams).
    package let fraction: Double?
    /// Buffer fill 0...1 while buffering.
    package let bufferFill: Double?
    /// "Buffer 40%" while buffering.
    package let bufferText: String?
    /// "12:34 / 1:00:00" (or the position alone); nil for live streams and when nothing is known.
    package let timeText: String?

    package init(
        isLive: Bool, liveLabel: String?, position: TimeInterval?, duration: TimeInterval?, fraction: Double?,
        bufferFill: Double?, bufferText: String?, timeText: String?
    ) {
        self.isLive = isLive
        self.liveLabel = liveLabel
        self.position = position
        self.duration = duration
        self.fraction = fraction
        self.bufferFill = bufferFill
        self.bufferText = bufferText
        self.timeText = timeText
    }

    /// The bar for `state`, or nil when `state.showsProgress` is false. A paused state's own
    /// position wins over the context's; the context's duration over the track's.
    package init?(state: PlayerState, context: PlaybackContext) {
        guard state.showsProgress, let track = state.currentTrack else { return nil }
        let language = context.language
        var fill: Float?
        if case .buffering(_, let p, _) = state { fill = p }
        let bufferFill = fill.map(Fractions.unit)
        let bufferText = fill.map { UIStrings.format(.bufferFill, in: language, Fractions.percent($0)) }
        if track.isLive {
            self.init(
                isLive: true, liveLabel: UIStrings.text(.live, in: language), position: nil, duration: nil,
                fraction: nil, bufferFill: bufferFill, bufferText: bufferText, timeText: nil)
            return
        }
        var position = context.position
        if case .paused(_, let p) = state { position = p }
        position = position.map { $0.isFinite ? max(0, $0) : 0 }
        let duration = context.duration ?? track.duration ?? context.episode?.duration
        self.init(
            isLive: false, liveLabel: nil, position: position, duration: duration,
            fraction: Fractions.fraction(position, of: duration), bufferFill: bufferFill, bufferText: bufferText,
            timeText: position.map { TimeText.position($0, of: duration) })
    }
}
