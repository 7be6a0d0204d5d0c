import MPDProtocol
import PlayerCore

/// What the backend knows of the player, from its updates: the facts `status` and `currentsong`
/// are built from. Kept by the one reader of the player's updates, read by every command.
package struct MPDPlayerView: Sendable, Equatable {
    package var state: PlayerState = .idle
    /// The player's clock when the state was published, for the reconnect countdown.
    package var stateTime = PlayerTime.zero
    package var position: Double = 0
    package var duration: Double?
    package var volume = Volume.full
    /// The last error, kept until a client's `clearerror` (as MPD keeps its own).
    package var error: PlaybackError?
    /// What a live stream says plays now.
    package var metadata: NowPlayingMetadata?
    /// The layers of the session that plays (its clock, bed and next bell); nil for anything else.
    package var layers: SessionLayersStatus?
    /// The gain levelling gives the song that plays, dB, once known (nil when levelling is off or
    /// still listening): what `replay_gain_status` tells beside the mode.
    package var trackGain: Double?

    package init() {}

    /// Takes `live` as the state, with the error it carries (a failure, or a reconnect's cause),
    /// kept until `clearerror`: the one rule for a state read from an update and for one asked of
    /// the player directly, so a `status` never shows a reconnect without its error.
    package mutating func adopt(_ live: PlayerState) {
        state = live
        if let failure = live.error, live.name == .failed || live.name == .reconnecting { error = failure }
    }

    /// Folds one update in. Returns the subsystems a client waiting in `idle` should hear of:
    /// `player` when the state's name, its song or its error change (not on progress alone, which
    /// `status` shows when asked), `mixer` on volume.
    package mutating func apply(_ update: PlayerUpdate) -> Set<MPDSubsystem> {
        switch update {
        case .state(let new, _, let now):
            let old = state
            adopt(new)
            stateTime = now
            if new.currentTrack?.id != old.currentTrack?.id { metadata = nil }
            // Paused, no clock runs to report progress: the state says where the song is (a seek
            // while paused moves it there at once).
            if case .paused(_, let at) = new { position = at }
            let changed = old.name != new.name || old.currentTrack?.id != new.currentTrack?.id
                || old.nextTrack?.id != new.nextTrack?.id || old.error != new.error
            return changed ? [.player] : []
        case .position(let seconds, let duration, _):
            // Paused, the state's position is the song's (a report from the decks may lag it).
            if state.name != .paused { position = seconds }
            self.duration = duration
            return []
        case .volume(let volume, _):
            let changed = volume != self.volume
            self.volume = volume
            return changed ? [.mixer] : []
        case .notice(.metadata(let metadata), _):
            guard metadata != self.metadata else { return [] }
            self.metadata = metadata
            // A stream's new title changes what `currentsong` says, which clients learn from
            // `player` (MPD raises it for a tag change of the song playing).
            return [.player]
        case .layers(let layers, _):
            let old = self.layers
            self.layers = layers
            // A bed's new phase or a bell rung is news to a client in `idle`; the clock's progress is not.
            let changed = (old == nil) != (layers == nil) || old?.bed?.phase != layers?.bed?.phase
                || old?.strikesRung != layers?.strikesRung || old?.nextBell != layers?.nextBell
            return changed ? [.player] : []
        case .loudness(_, let gain, _):
            trackGain = gain
            return []
        case .notice(.nonFatal(let failure), _):
            error = failure
            return [.player]
        default:
            return []
        }
    }
}
