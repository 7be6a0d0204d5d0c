/// What the player publishes, in order, each stamped with the audio clock (seconds of audio
/// written to the output): the public stream front ends, MPRIS and `--events jsonl` consume.
public enum PlayerUpdate: Sendable, Equatable {
    /// Every state change (crossfade progress included, at least every 100 ms while crossfading).
    /// `now` is the player's clock, for countdowns such as the seconds until a reconnect attempt.
    case state(PlayerState, audioTime: Double, now: PlayerTime)
    /// Position of the current track, at least 10 times a second while sounding (twice a second
    /// for a live stream playing alone, whose position nothing is decided on).
    case position(seconds: Double, duration: Double?, audioTime: Double)
    /// Something the listener or the app should know that is not a state.
    case notice(PlayerNotice, audioTime: Double)
    /// The listener's volume: once when the player starts, then on every change.
    case volume(Volume, audioTime: Double)
    /// The sleep timer (nil: none), when the player starts with one and on every change; `now`
    /// is the player's clock, for its countdown.
    case sleepTimer(SleepTimer?, audioTime: Double, now: PlayerTime)
    /// The speed of files and episodes: once when the player starts, then on every change.
    case speed(PlaybackSpeed, audioTime: Double)
    /// Loudness levelling: once when the player starts, on every change of mode, and when the
    /// current track's gain is known (`trackGain` in dB; nil when off, or levelled adaptively).
    case loudness(LoudnessLevelling, trackGain: Double?, audioTime: Double)
    /// A live stream's connection: about once a second while it plays, and at once when a
    /// reconnect in the background begins or ends.
    case connection(ConnectionQuality, audioTime: Double)
    /// The layers of the session that plays (its clock, bed and next bell): told when the session
    /// starts and whenever they change (the clock by whole seconds, the bed by phase or 2 % of
    /// level, every bell), always before the state they belong to; nil once the session is over.
    /// A front end keeps the last one with the state (`--events jsonl` adds it to every state).
    case layers(SessionLayersStatus?, audioTime: Double)

    public var audioTime: Double {
        switch self {
        case .state(_, let t, _), .position(_, _, let t), .notice(_, let t), .volume(_, let t), .sleepTimer(_, let t, _), .speed(_, let t),
            .loudness(_, _, let t), .connection(_, let t), .layers(_, let t): t
        }
    }
}

/// Facts around playback that are not states.
public enum PlayerNotice: Sendable, Equatable {
    /// A problem that did not stop playback (a queued item could not load and was skipped).
    case nonFatal(PlaybackError)
    /// An error was overcome, automatically or by the user's Retry (for analytics).
    case recovered(PlaybackError, by: PlayerEffect.Recovery)
    /// The stream keeps dropping: `drops` times within `within` seconds (`DropWarning`). Told once
    /// per stream, for the listener, with what to do (`PlayerTexts.keepsDropping`).
    case keepsDropping(Track, drops: Int, within: Double)
    /// A track played to its end.
    case trackFinished(Track)
    /// Where the listener is, to be saved (pause, stop, failure).
    case savePosition(ResumePoint)
    /// The output device went away: playback was paused, and this says why.
    case routeChanged(RouteChange)
    /// What a live stream says is playing now (title, artist, station, kind of artwork).
    case metadata(NowPlayingMetadata)
    /// Silence trimming has left this much of `track` out so far (its total for this play, media
    /// seconds); told as it grows.
    case silenceTrimmed(Track, seconds: Double)
    /// A service beside playback failed (the artwork, a status API): front ends show it as an
    /// inline error; the service has recorded it in the analytics already.
    case serviceProblem(PlaybackError)
    /// The current item's chapters, when they become known and when the item changes (nil: the
    /// new item has none). Not told for an item without chapters after another without them.
    case chapters(ChapterList?)
    /// The chapter the current item's position is in, when that changes (nil: none, or before the
    /// first chapter). Told just before the position update that moved into it.
    case chapter(ChapterPosition?)
    /// The current item's transcript, when it becomes known and when the item changes (nil: the
    /// new item has none). Not told for an item without one after another without one.
    case transcript(Transcript?)
    /// The cue spoken at the current item's position, when that changes (nil: between cues, or
    /// no transcript). Told just before the position update that moved into it.
    case cue(TranscriptCuePosition?)
    /// Which item of the request is current (the one heard: the incoming one once a crossfade has
    /// begun), so a front end tells two identical tracks in its queue apart: its index in the
    /// request's items, where the items of a later `setUpcoming` count on from the current one's.
    /// Told when it changes, just before the state that shows the item.
    case currentItem(index: Int)
    /// A bell of the session struck, at its time on the session's clock (or was jumped over by
    /// a seek, and says so).
    case bell(BellStrike)
}

/// A change of where sound goes that the listener should know about.
public enum RouteChange: Sendable, Equatable {
    /// The device playback was on disappeared (headphones unplugged): playback pauses.
    case deviceRemoved(name: String)
}
