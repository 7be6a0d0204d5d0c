import Foundation
import GRDB
import PlayerCore

/// The time silence trimming saved a listener: per episode, added up over every play.
extension LibraryStore {
    /// Adds `seconds` left out of episode `episodeID` (a play's growth since it was last told).
    package func addTrimmedSilence(episodeID: Int64, seconds: TimeInterval) throws(PlaybackError) {
        guard seconds.isFinite, seconds > 0 else { return }
        try write { db in
            guard try EpisodeQueries.exists(db, id: episodeID) else {
                throw PlaybackError(.notInLibrary, underlying: "no episode with that id")
            }
            try db.execute(
                sql: """
                    INSERT INTO trimmedSilence (episodeId, seconds) VALUES (?, ?)
                    ON CONFLICT (episodeId) DO UPDATE SET seconds = seconds + excluded.seconds
                    """,
                arguments: [episodeID, seconds])
        }
    }

    /// Seconds saved, per podcast that has any, most first.
    package func trimmedSilenceByPodcast() throws(PlaybackError) -> [(podcast: String, seconds: TimeInterval)] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT podcast.title AS title, SUM(trimmedSilence.seconds) AS seconds FROM trimmedSilence
                    JOIN episode ON episode.id = trimmedSilence.episodeId JOIN podcast ON podcast.id = episode.podcastId
                    GROUP BY podcast.id ORDER BY seconds DESC, podcast.title
                    """
            ).map { (podcast: $0["title"] as String, seconds: $0["seconds"] as Double) }
        }
    }

    /// Seconds saved in one episode.
    package func trimmedSilence(episodeID: Int64) throws(PlaybackError) -> TimeInterval {
        try read { db in
            try Double.fetchOne(db, sql: "SELECT seconds FROM trimmedSilence WHERE episodeId = ?", arguments: [episodeID]) ?? 0
        }
    }

    /// Seconds saved per podcast id, for the podcasts that have any.
    package func trimmedSilenceByPodcastID() throws(PlaybackError) -> [Int64: TimeInterval] {
        try read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT episode.podcastId AS podcast, SUM(trimmedSilence.seconds) AS seconds FROM trimmedSilence
                    JOIN episode ON episode.id = trimmedSilence.episodeId GROUP BY episode.podcastId
                    """)
            return Dictionary(uniqueKeysWithValues: rows.map { ($0["podcast"] as Int64, $0["seconds"] as Double) })
        }
    }
}
