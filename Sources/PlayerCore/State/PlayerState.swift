import Foundation

/// The complete, honest state of the player: the single source of truth every screen, MPRIS
/// property and JSON event is derived from.
///
/// Ten cases describe a crossfading player; three more describe network playback: `buffering`
/// (waiting for data, with fill progress), `seeking` (a jump in a network item waits for data at
/// its target) and `reconnecting` (an automatic retry is scheduled and visible, with a countdown). `failed` also keeps the `ResumePoint` a Retry needs to resume exactly.
///
/// Equality: tracks compare by id, floats within 0.001.
public enum PlayerState: Sendable {
    /// Nothing loaded. Initial state, after stop from a silent state, after reset.
    case idle
    /// Opening a source (file, episode, stream connection). Shows a spinner.
    case preparing(track: Track)
    /// The current track plays while the next loads on the other deck for a crossfade.
    case preparingCrossfade(currentTrack: Track, nextTrack: Track)
    /// One deck is audible.
    case playing(track: Track)
    /// Playback waits for data: the initial fill of a stream or an underrun. `progress` is the fill
    /// (0...1) towards the level at which playback (re)starts.
    case buffering(track: Track, progress: Float, reason: BufferingReason)
    /// A seek in a network item (an episode) waits for data at `to`; `from` is where the listener
    /// was. It ends in `playing` once audio from the target plays (or `paused`, when paused
    /// meanwhile); a failed seek is a typed, non-fatal error that reloads the item at `from`.
    case seeking(track: Track, from: TimeInterval, to: TimeInterval)
    /// Both decks are audible; `progress` runs 0...1. `canQuickFinish` is progress >= 0.5: a pause
    /// now would resume with a 1 s quick finish.
    case crossfading(fromTrack: Track, toTrack: Track, progress: Float, canQuickFinish: Bool)
    /// The user paused a single track.
    case paused(track: Track, position: TimeInterval)
    /// The user paused in the middle of a crossfade; `savedState` is what a perfect resume needs.
    case crossfadePaused(
        fromTrack: Track, toTrack: Track, progress: Float, resumeStrategy: ResumeStrategy,
        savedState: CrossfadePauseSnapshot)
    /// A graceful fade to silence before `finished` (stop, or the natural end of the last item).
    case fadingOut(track: Track, targetDuration: TimeInterval)
    /// A fault interrupted playback and an automatic retry is on its way. `nextRetryAt` is nil while
    /// the network is down: no attempt is spent until it returns. `cause` says why.
    case reconnecting(track: Track, attempt: Int, maxAttempts: Int, nextRetryAt: PlayerTime?, cause: PlaybackError)
    /// Everything queued has played to its end.
    case finished
    /// Playback stopped on an error. `recoverable` offers Retry, which resumes at `resumePoint`.
    case failed(error: PlaybackError, recoverable: Bool, resumePoint: ResumePoint?)
}

extension PlayerState {
    /// Why playback waits for data.
    public enum BufferingReason: String, Sendable, Hashable, Codable {
        /// The connection has not answered within `ResilienceDefaults.stillConnectingAfter`: told
        /// early, failed late (the connect timeout is longer).
        case connecting
        /// The first fill after a stream opened.
        case initial
        /// The buffer ran dry while playing.
        case underrun
    }

    /// How a paused crossfade resumes.
    public enum ResumeStrategy: String, Sendable, Hashable, Codable {
        /// Progress < 50%: restore volumes and positions, play the remaining part of the fade.
        case continueFromProgress
        /// Progress >= 50%: finish the fade in one second rather than replaying most of it.
        case quickFinish

        /// The strategy for a pause at `progress`: continue below 50 %, quick finish from 50 %.
        public static func forPause(at progress: Float) -> ResumeStrategy {
            progress < PlayerState.quickFinishThreshold ? .continueFromProgress : .quickFinish
        }
    }

    /// Progress from which a paused crossfade quick-finishes instead of continuing.
    public static let quickFinishThreshold: Float = 0.5
    /// How long a quick finish takes.
    public static let quickFinishDuration: TimeInterval = 1.0
    /// Float tolerance of equality.
    public static let floatTolerance = 0.001

    /// The case names, as written in the code. JSON events, MPRIS mapping and the generated state
    /// table use these strings.
    public enum Name: String, Sendable, Hashable, Codable, CaseIterable {
        case idle, preparing, preparingCrossfade, playing, buffering, seeking, crossfading, paused, crossfadePaused
        case fadingOut, reconnecting, finished, failed
    }

    /// The case name of this state.
    public var name: Name {
        switch self {
        case .idle: .idle
        case .preparing: .preparing
        case .preparingCrossfade: .preparingCrossfade
        case .playing: .playing
        case .buffering: .buffering
        case .seeking: .seeking
        case .crossfading: .crossfading
        case .paused: .paused
        case .crossfadePaused: .crossfadePaused
        case .fadingOut: .fadingOut
        case .reconnecting: .reconnecting
        case .finished: .finished
        case .failed: .failed
        }
    }
}

/// A snapshot of a crossfade at the moment of pause: enough to resume it exactly.
public struct CrossfadePauseSnapshot: Sendable, Hashable, Codable {
    /// Gain of the deck fading out.
    public let activeVolume: Float
    /// Gain of the deck fading in.
    public let inactiveVolume: Float
    /// Position (s) of the track fading out.
    public let activePosition: TimeInterval
    /// Position (s) of the track fading in.
    public let inactivePosition: TimeInterval
    /// The deck that was fading out.
    public let activePlayer: DeckID
    /// The crossfade's full length (s).
    public let originalDuration: TimeInterval
    public let curve: FadeCurve
    /// When the snapshot was taken, on the player's clock (for logs and debugging).
    public let takenAt: PlayerTime

    public init(
        activeVolume: Float, inactiveVolume: Float, activePosition: TimeInterval, inactivePosition: TimeInterval,
        activePlayer: DeckID, originalDuration: TimeInterval, curve: FadeCurve, takenAt: PlayerTime
    ) {
        self.activeVolume = activeVolume
        self.inactiveVolume = inactiveVolume
        self.activePosition = activePosition
        self.inactivePosition = inactivePosition
        self.activePlayer = activePlayer
        self.originalDuration = originalDuration
        self.curve = curve
        self.takenAt = takenAt
    }

    /// Equal within `PlayerState.floatTolerance`; the instant it was taken does not matter.
    public static func == (lhs: CrossfadePauseSnapshot, rhs: CrossfadePauseSnapshot) -> Bool {
        let tol = PlayerState.floatTolerance
        return abs(Double(lhs.activeVolume - rhs.activeVolume)) < tol
            && abs(Double(lhs.inactiveVolume - rhs.inactiveVolume)) < tol
            && abs(lhs.activePosition - rhs.activePosition) < tol
            && abs(lhs.inactivePosition - rhs.inactivePosition) < tol
            && lhs.activePlayer == rhs.activePlayer
            && abs(lhs.originalDuration - rhs.originalDuration) < tol
            && lhs.curve == rhs.curve
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(activePlayer)
        hasher.combine(curve)
    }
}

extension PlayerState: Equatable {
    /// Equality: tracks by id, floats within 0.001, errors by code and details.
    public static func == (lhs: PlayerState, rhs: PlayerState) -> Bool {
        func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < floatTolerance }
        func close(_ a: Float, _ b: Float) -> Bool { abs(Double(a) - Double(b)) < floatTolerance }
        switch (lhs, rhs) {
        case (.idle, .idle), (.finished, .finished):
            return true
        case let (.preparing(a), .preparing(b)), let (.playing(a), .playing(b)):
            return a.id == b.id
        case let (.preparingCrossfade(a1, a2), .preparingCrossfade(b1, b2)):
            return a1.id == b1.id && a2.id == b2.id
        case let (.buffering(a, ap, ar), .buffering(b, bp, br)):
            return a.id == b.id && close(ap, bp) && ar == br
        case let (.seeking(a, af, at), .seeking(b, bf, bt)):
            return a.id == b.id && close(af, bf) && close(at, bt)
        case let (.crossfading(af, at, ap, aq), .crossfading(bf, bt, bp, bq)):
            return af.id == bf.id && at.id == bt.id && close(ap, bp) && aq == bq
        case let (.paused(a, ap), .paused(b, bp)):
            return a.id == b.id && close(ap, bp)
        case let (.crossfadePaused(af, at, ap, ast, asn), .crossfadePaused(bf, bt, bp, bst, bsn)):
            return af.id == bf.id && at.id == bt.id && close(ap, bp) && ast == bst && asn == bsn
        case let (.fadingOut(a, ad), .fadingOut(b, bd)):
            return a.id == b.id && close(ad, bd)
        case let (.reconnecting(a, aa, am, an, ac), .reconnecting(b, ba, bm, bn, bc)):
            let sameInstant: Bool
            switch (an, bn) {
            case (nil, nil): sameInstant = true
            case let (x?, y?): sameInstant = close(x.seconds, y.seconds)
            default: sameInstant = false
            }
            return a.id == b.id && aa == ba && am == bm && sameInstant && ac == bc
        case let (.failed(ae, ar, ap), .failed(be, br, bp)):
            return ae == be && ar == br && ap?.track.id == bp?.track.id
                && close(ap?.position ?? 0, bp?.position ?? 0)
        default:
            return false
        }
    }
}
