import Foundation

/// A moment as the alarm sees it: the wall clock, which says whether the alarm is due (and keeps
/// counting while the machine sleeps), and the player's monotonic clock, which times the fade and
/// the deadline (and never jumps when the wall clock is set).
public struct AlarmInstant: Sendable, Equatable {
    public var wall: Date
    public var clock: PlayerTime

    public init(wall: Date, clock: PlayerTime) {
        self.wall = wall
        self.clock = clock
    }
}

/// The timers the alarm asks for, on the injected monotonic clock.
public enum AlarmTimer: String, Sendable, Hashable, CaseIterable {
    /// The next look at the wall clock while waiting.
    case check
    /// The next step of the fade-in.
    case fadeStep
    /// The end of the time the source has to sound.
    case deadline
}

/// What the alarm plays.
public enum AlarmPlay: String, Sendable, Hashable {
    /// The station, episode or session the listener chose.
    case source
    /// The built-in local tone, looping until stopped.
    case fallback
}

/// What the alarm reacts to: its timers, and facts from the player and the output.
public enum AlarmEvent: Sendable, Equatable {
    /// The alarm is set: it works out when it is due.
    case start
    case timerFired(AlarmTimer)
    /// The player is ready to sound the alarm, at the listener's volume (`open` was performed).
    case opened(listenerVolume: Volume)
    /// No player could be had (no sound output): the alarm cannot sound at all.
    case playerUnavailable(PlaybackError)
    /// The replacement for `play` went to the player; its states carry these track ids.
    case playing(AlarmPlay, trackIDs: Set<String>)
    /// What `play(.source)` names could not be found or opened before reaching the player (a
    /// station removed from the library).
    case sourceUnavailable(PlaybackError)
    /// The player's state, as it publishes it.
    case playerState(PlayerState)
    /// The player's volume, as it publishes it.
    case volume(Volume)
    /// Momentary loudness (LUFS, over 400 ms) of what the output was sent, volume included; nil
    /// for digital silence or too little audio to tell.
    case outputLoudness(Double?)
    /// The alarm is taken away (Ctrl-C, `--cancel`): it decides nothing more.
    case cancel
}

/// What the alarm asks of the process that runs it.
public enum AlarmEffect: Sendable, Equatable {
    case scheduleTimer(AlarmTimer, after: Double)
    case cancelTimer(AlarmTimer)
    /// Make a player ready (open the output, or take the daemon's) and answer `opened`.
    case open
    /// Replace what plays with the source or the fallback, and answer `playing` (or
    /// `sourceUnavailable`).
    case play(AlarmPlay)
    case setVolume(Volume)
    /// Start or stop reporting `outputLoudness`.
    case measure(Bool)
    case tell(AlarmNotice)
}

/// What the listener is told: on the terminal, in `--events jsonl` and in the log.
public enum AlarmNotice: Sendable, Equatable {
    /// It will sound at `due`.
    case waiting(due: Date)
    /// It is due: the source starts, fading in.
    case sounding(due: Date)
    /// The source was heard (above the silence threshold, volume taken into account).
    case sounded(due: Date)
    /// The source did not sound in time, or failed: the built-in tone plays, and this says why.
    case fellBack(due: Date, PlaybackError)
    /// The wall clock was already past `due` by more than the grace when it was looked at (the
    /// machine was asleep): the alarm did not sound, rather than sound that late.
    case missed(due: Date, noticed: Date, PlaybackError)
    /// Nothing could sound, not even the tone (no sound output).
    case failed(due: Date, PlaybackError)
    case cancelled
}
