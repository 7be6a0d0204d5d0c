import Foundation
import GRDB
import PlayerCore

/// Loudness measured once per source and kept, so levelling knows a track before it plays.
extension LibraryStore {
    /// Sources measured at most; beyond it the oldest measurements go (a library of ten thousand
    /// files stays small).
    package static let maxLoudnessEntries = 50_000

    package func loudness(sourceKey: String) throws(PlaybackError) -> Loudness? {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT integrated, source FROM loudness WHERE sourceKey = ?", arguments: [sourceKey]),
                let source = Loudness.Source(rawValue: row["source"])
            else { return nil }
            return Loudness(integrated: row["integrated"], source: source)
        }
    }

    /// Keeps (or replaces) a source's loudness; beyond `limit` sources, the oldest go.
    package func keepLoudness(
        _ loudness: Loudness, sourceKey: String, at date: Date = Date(), limit: Int = LibraryStore.maxLoudnessEntries
    ) throws(PlaybackError) {
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO loudness (sourceKey, integrated, source, measuredAt) VALUES (?, ?, ?, ?)
                    ON CONFLICT (sourceKey) DO UPDATE SET integrated = excluded.integrated, source = excluded.source,
                        measuredAt = excluded.measuredAt
                    """,
                arguments: [sourceKey, loudness.integrated, loudness.source.rawValue, date.timeIntervalSince1970])
            try db.execute(
                sql: """
                    DELETE FROM loudness WHERE sourceKey NOT IN
                        (SELECT sourceKey FROM loudness ORDER BY measuredAt DESC LIMIT ?)
                    """,
                arguments: [max(1, limit)])
        }
    }
}
