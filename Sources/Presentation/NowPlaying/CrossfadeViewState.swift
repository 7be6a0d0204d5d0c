import Foundation
import PlayerCore

/// A running or paused crossfade: "Transitioning to X (47%)" and the two decks' gains.
package struct CrossfadeViewState: Sendable, Hashable, Codable {
    package let fromTitle: String
    package let toTitle: String
    /// 0...1.
    package let progress: Double
    /// Whole percent, truncated like the status text.
    package let percent: Int
    /// `state.displayText`: "Transitioning to X (47%)" or "Paused during transition (47%, resuming)".
    package let text: String
    package let curve: FadeCurve
    /// Gain of the deck fading out, `curve.gains(at: progress).outgoing`.
    package let outgoingGain: Double
    /// Gain of the deck fading in.
    package let incomingGain: Double
    package let outgoingLabel: String
    package let incomingLabel: String
    package let isPaused: Bool
    /// How a paused crossfade resumes.
    package let resumeStrategy: PlayerState.ResumeStrategy?

    package init(
        fromTitle: String, toTitle: String, progress: Double, percent: Int, text: String, curve: FadeCurve,
        outgoingGain: Double, incomingGain: Double, outgoingLabel: String, incomingLabel: String, isPaused: Bool,
        resumeStrategy: PlayerState.ResumeStrategy?
    ) {
        self.fromTitle = fromTitle
        self.toTitle = toTitle
        self.progress = progress
        self.percent = percent
        self.text = text
        self.curve = curve
        self.outgoingGain = outgoingGain
        self.incomingGain = incomingGain
        self.outgoingLabel = outgoingLabel
        self.incomingLabel = incomingLabel
        self.isPaused = isPaused
        self.resumeStrategy = resumeStrategy
    }

    /// Built for `crossfading` and `crossfadePaused` only. `crossfading` does not carry its curve,
    /// so the caller passes it (default equal power); a paused crossfade uses its snapshot's curve.
    package init?(state: PlayerState, context: PlaybackContext, curve: FadeCurve? = nil) {
        let language = context.language
        let from: Track
        let to: Track
        let p: Float
        let usedCurve: FadeCurve
        let paused: Bool
        let strategy: PlayerState.ResumeStrategy?
        switch state {
        case .crossfading(let f, let t, let progress, _):
            (from, to, p, usedCurve, paused, strategy) = (f, t, progress, curve ?? .equalPower, false, nil)
        case .crossfadePaused(let f, let t, let progress, let s, let snapshot):
            (from, to, p, usedCurve, paused, strategy) = (f, t, progress, snapshot.curve, true, s)
        default:
            return nil
        }
        let unit = Fractions.unit(p)
        let gains = usedCurve.gains(at: unit)
        let unknown = UIStrings.text(.unknownTitle, in: language)
        self.init(
            fromTitle: from.title ?? unknown, toTitle: to.title ?? unknown, progress: unit,
            percent: Fractions.percent(p), text: state.displayText(in: language, now: context.now), curve: usedCurve,
            outgoingGain: gains.outgoing, incomingGain: gains.incoming,
            outgoingLabel: UIStrings.text(.outgoingDeck, in: language),
            incomingLabel: UIStrings.text(.incomingDeck, in: language), isPaused: paused, resumeStrategy: strategy)
    }
}
