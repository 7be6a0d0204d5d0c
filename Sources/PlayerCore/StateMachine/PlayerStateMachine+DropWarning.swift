import Foundation

/// A station that keeps dropping is told to the listener once, in plain words with what to do,
/// when its `DropWarning.drops`-th drop within `DropWarning.window` comes: the player reconnects
/// every time, so without it a listener hears short gaps and never learns that the station, not
/// the player, is the trouble. The numbers are those of the `TonearmStationFailingRepeatedly`
/// alert an operator's Prometheus raises (contrib/prometheus).
public enum DropWarning {
    /// Drops of one stream that make a warning.
    public static let drops = 3
    /// Within this many seconds.
    public static let window: TimeInterval = 1_800
}

extension PlayerStateMachine {
    /// Records a drop of `track` (a reconnect, heard or not) and warns when it is the one that
    /// reaches `DropWarning.drops` within the window, once per stream while the player runs.
    mutating func recordDrop(of track: Track, at now: PlayerTime) -> [PlayerEffect] {
        connectionIncidents.record(.reconnect, of: track.id, at: now)
        let drops = connectionIncidents.count(.reconnect, of: track.id, at: now, within: DropWarning.window)
        guard drops >= DropWarning.drops, !droppingWarned.contains(track.id) else { return [] }
        droppingWarned.insert(track.id)
        return [.warnKeepsDropping(track, drops: drops)]
    }
}
