import Foundation
import GRDB
import PlayerCore

/// Where the listener stopped in each episode, and whether they finished it.
///
/// Each call is one committed transaction in WAL mode, so a position the player saved survives
/// the process being killed right after.
extension LibraryStore {
    /// Saves where playback of the episode is. The played flag is left as it is (`markPlayed`
    /// sets it), so saving the final position before marking an episode played is safe.
    /// - Parameters:
    ///   - position: seconds; negative or non-finite values count as 0.
    ///   - duration: the duration the player measured, when known; it then replaces the feed's.
    package func savePosition(episodeID: Int64, position: TimeInterval, duration: TimeInterval?) throws(PlaybackError) {
        let position = position.isFinite ? max(0, position) : 0
        let duration = duration.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        let savedAt = now().timeIntervalSince1970
        try write { db in
            guard try EpisodeQueries.exists(db, id: episodeID) else {
                throw PlaybackError(.notInLibrary, underlying: "no episode with that id")
            }
            try db.execute(
                sql: """
                    INSERT INTO playbackPosition (episodeId, position, duration, played, updatedAt) VALUES (?, ?, ?, 0, ?)
                    ON CONFLICT (episodeId) DO UPDATE SET position = excluded.position,
                        duration = COALESCE(excluded.duration, duration), updatedAt = excluded.updatedAt
                    """,
                arguments: [episodeID, position, duration, savedAt])
        }
    }

    /// Marks the episode finished (or, with `false`, not finished); its position is kept.
    /// Marks every episode of the podcast played ("mark all played"); their places are kept.
    package func markAllPlayed(podcastID: Int64) throws(PlaybackError) {
        let savedAt = now().timeIntervalSince1970
        try write { db in
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM podcast WHERE id = ?)", arguments: [podcastID]) == true else {
                throw PlaybackError(.notInLibrary, underlying: "no podcast with that id")
            }
            try db.execute(
                sql: """
                    INSERT INTO playbackPosition (episodeId, position, duration, played, updatedAt)
                        SELECT id, 0, NULL, 1, ? FROM episode WHERE podcastId = ?
                    ON CONFLICT (episodeId) DO UPDATE SET played = 1, updatedAt = excluded.updatedAt
                    """,
                arguments: [savedAt, podcastID])
        }
    }

    package func markPlayed(episodeID: Int64, _ played: Bool = true) throws(PlaybackError) {
        let savedAt = now().timeIntervalSince1970
        try write { db in
            guard try EpisodeQueries.exists(db, id: episodeID) else {
                throw PlaybackError(.notInLibrary, underlying: "no episode with that id")
            }
            try db.execute(
                sql: """
                    INSERT INTO playbackPosition (episodeId, position, duration, played, updatedAt) VALUES (?, 0, NULL, ?, ?)
                    ON CONFLICT (episodeId) DO UPDATE SET played = excluded.played, updatedAt = excluded.updatedAt
                    """,
                arguments: [episodeID, played, savedAt])
        }
    }

    /// Where to start: the saved position, or 0 when none or when the episode was finished (played).
    package func resumePosition(episodeID: Int64) throws(PlaybackError) -> TimeInterval {
        let episode = try episode(id: episodeID)
        return episode.played ? 0 : episode.position
    }
}
