import Foundation

/// Everything the state machine reacts to: user intents and facts reported by the I/O layers.
///
/// Intents are checked against `PlayerState.allowedActions` and refused with `invalidTransition`
/// when not allowed. Facts describe what already happened; a fact that no longer applies (a late
/// answer for an abandoned load, progress after a stop) changes nothing.
/// Facts that may start a timed decision carry the instant they happened on the player's clock.
public enum PlayerEvent: Sendable, Equatable {
    // MARK: User intents
    case play(PlayRequest)
    /// The user asked to play something that cannot be played at all (such as an episode
    /// without an audio URL). Counts as a play intent.
    case cannotPlay(PlaybackError)
    case pause
    case resume
    case stop
    case skip
    case seek(to: TimeInterval)
    case retry
    case reset
    case retryNow
    case cancelRetry
    /// Stop what plays and start something else: the one way a front end opens a new item while
    /// another plays. Accepted in every state. What plays audibly fades out as on stop (an
    /// episode's place is saved), then the replacement starts; the state goes straight from the
    /// old item to the new one, never through `idle` or `finished`.
    case replace(Replacement)
    /// Set or change the listener's volume. Accepted in every state and changes no state: the
    /// volume is kept across items, pauses and reconnects.
    case setVolume(VolumeChange)
    /// Set, extend or cancel the sleep timer. Accepted in every state; like the volume, it is
    /// context, and changes no state by itself.
    case setSleepTimer(SleepRequest)
    /// Set or change the speed of files and episodes (pitch kept). Accepted in every state.
    case setSpeed(SpeedChange)
    /// Shorten long silences (speech), or stop. Accepted in every state.
    case setSilenceTrimming(Bool)
    /// Level loudness (off, per track, per session) towards a target. Accepted in every state.
    case setLoudness(LoudnessLevelling)
    /// Change what plays after the current item without interrupting it (a queue edited while it
    /// plays). Accepted in every state; like the volume it is context: the current item and what
    /// sounds do not change. In `idle`, `finished` and `failed` there is no queue and it does
    /// nothing. While an item is current (the incoming one once a crossfade has begun: it is the
    /// one heard), the queue becomes the items up to it followed by `items`, and its crossfade into
    /// the next becomes `crossfadeFromCurrent`. A next item loading or loaded but not yet audible
    /// is kept when it is the same track from the same position as the new first one; otherwise
    /// it is dropped (with its armed crossfade). The new next item loads at the usual point, at
    /// once when that has passed: only the state's next item changes (`preparingCrossfade` or
    /// `playing`).
    case setUpcoming(UpcomingChange)

    // MARK: Engine and network facts
    /// The source of a `load` effect is open and ready to sound; `duration` if the decoder knows it.
    case loaded(LoadID, duration: TimeInterval?)
    /// The live address of a pending load turned out to hold a finished recording (an HLS
    /// playlist with an end): from now on the item is episode-like, with an end and seeking.
    /// Told just before its `loaded`.
    case loadIsRecording(LoadID)
    /// The source of a `load` effect could not be opened.
    case loadFailed(LoadID, PlaybackError, at: PlayerTime)
    /// Fill level (0...1) towards the start/restart threshold of a network deck.
    case bufferProgress(DeckID, fill: Float)
    /// The deck's buffer ran dry while playing (rendering: the render thread is waiting for data).
    case underrun(DeckID)
    /// The deck's buffer is full enough again after an underrun (rendering: data came).
    case refilled(DeckID)
    /// Playback position of a deck, in seconds, at least 10 times a second while sounding (twice a
    /// second for a live stream playing alone: it has no end to decide a fade or crossfade at).
    case positionChanged(DeckID, position: TimeInterval)
    /// A scheduled crossfade began mixing.
    case crossfadeStarted
    /// Crossfade progress (0...1) with both decks' positions, at least every 100 ms.
    case crossfadeProgress(Float, fromPosition: TimeInterval, toPosition: TimeInterval)
    case crossfadeCompleted
    case fadeOutCompleted
    /// The deck's source reached its end (for a live stream: the connection ended cleanly).
    case trackEnded(DeckID, at: PlayerTime)
    /// The deck's network connection broke (reported by the source when it happens, before the
    /// audio already buffered has played out).
    case streamDropped(DeckID, cause: PlaybackError, at: PlayerTime)
    /// The deck's source ran dry at `at`, and has been dry since: its reader waits and no bytes
    /// come (a slow or silent server, or one that has not answered yet). How long that may last is
    /// the machine's decision (`Configuration.stallTimeout`).
    case stalled(DeckID, at: PlayerTime)
    /// Bytes reach the deck's source again after `stalled`.
    case receiving(DeckID, at: PlayerTime)
    /// The deck's live playlist (HLS) was loaded `loads` times in a row without a new segment.
    /// Whether the stream has stalled is the machine's decision
    /// (`Configuration.unchangedPlaylistLoads`).
    case playlistUnchanged(DeckID, loads: Int, at: PlayerTime)
    /// Any other failure; `deck` is nil when it is not tied to one deck.
    case errorOccurred(DeckID?, PlaybackError, at: PlayerTime)
    /// A timer the machine scheduled (`PlayerEffect.scheduleTimer`) is due.
    case timerFired(PlayerTimer, at: PlayerTime)
    /// The connectivity monitor's verdict changed.
    case connectivityChanged(online: Bool, at: PlayerTime)
    /// The sound server went away.
    case outputLost(at: PlayerTime)
    /// The sound server answers again.
    case outputRestored
    /// The session's clock (seconds of the session heard, pauses excluded) and its bed, about
    /// every 100 ms while a session with layers plays.
    case layersProgress(sessionTime: TimeInterval, bed: BedStatus?)
    /// Strike `strike` (from 1) of the bell armed for `cue` sounded at `sessionTime`, which was
    /// `audioTime` on the audio clock.
    case bellStruck(BellCue, strike: Int, sessionTime: TimeInterval, audioTime: Double? = nil)
    /// A seek moved the session's clock from `from` to `to`.
    case sessionClockJumped(from: TimeInterval, to: TimeInterval)
    /// After `endLayers`, the bed has faded out and the last bell has rung out.
    case layersFinished

    /// What a `replace` starts.
    public enum Replacement: Sendable, Equatable {
        case play(PlayRequest)
        /// Something that cannot be played at all, shown as a failure (`cannotPlay`).
        case cannotPlay(PlaybackError)
    }

    /// The user action this event is, or nil for a fact and for `replace` and `setVolume` (accepted in
    /// every state).
    public var action: PlayerAction? {
        switch self {
        case .play, .cannotPlay: .play
        case .pause: .pause
        case .resume: .resume
        case .stop: .stop
        case .skip: .skip
        case .seek: .seek
        case .retry: .retry
        case .reset: .reset
        case .retryNow: .retryNow
        case .cancelRetry: .cancelRetry
        default: nil
        }
    }

    /// Is this something a listener asks for (every intent, `replace` and `setVolume` included), not a fact?
    public var isIntent: Bool {
        switch self {
        case .replace, .setVolume, .setSleepTimer, .setSpeed, .setSilenceTrimming, .setLoudness, .setUpcoming: true
        default: action != nil
        }
    }

    /// The instant a fact carries, if any.
    public var instant: PlayerTime? {
        switch self {
        case .loadFailed(_, _, let at), .trackEnded(_, let at), .streamDropped(_, _, let at), .stalled(_, let at), .receiving(_, let at),
            .playlistUnchanged(_, _, let at), .errorOccurred(_, _, let at), .timerFired(_, let at),
            .connectivityChanged(_, let at), .outputLost(let at):
            return at
        default:
            return nil
        }
    }
}
