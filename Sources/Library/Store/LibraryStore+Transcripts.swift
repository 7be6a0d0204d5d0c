import Foundation
import GRDB
import PlayerCore

/// Transcripts fetched once and kept with their episode: read again without the network, gone
/// with the episode. A transcript is kept with the address it came from, so a feed that names
/// another one later gets it fetched anew.
extension LibraryStore {
    /// The transcript kept for `episodeID` from `url`; nil when none is kept, or it came from
    /// another address. A kept row that no longer decodes counts as none (it is fetched again).
    package func keptTranscript(episodeID: Int64, url: URL) throws(PlaybackError) -> Transcript? {
        try read { db in
            guard
                let row = try Row.fetchOne(db, sql: "SELECT url, cues FROM transcript WHERE episodeId = ?", arguments: [episodeID]),
                (row["url"] as String) == url.absoluteString
            else { return nil }
            return try? JSONDecoder().decode(Transcript.self, from: Data((row["cues"] as String).utf8))
        }
    }

    /// Keeps (or replaces) the transcript of `episodeID`, fetched from `url`.
    package func keepTranscript(_ transcript: Transcript, format: TranscriptFormat, episodeID: Int64, url: URL, at date: Date = Date())
        throws(PlaybackError)
    {
        let cues: String
        do {
            cues = String(decoding: try JSONEncoder().encode(transcript), as: UTF8.self)
        } catch {
            throw PlaybackError(.malformedData, underlying: "transcript could not be encoded")
        }
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO transcript (episodeId, url, format, cues, fetchedAt) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (episodeId) DO UPDATE SET url = excluded.url, format = excluded.format, cues = excluded.cues,
                        fetchedAt = excluded.fetchedAt
                    """,
                arguments: [episodeID, url.absoluteString, format.rawValue, cues, date.timeIntervalSince1970])
        }
    }

    /// The transcript kept from `url` for any episode (the player knows the address, not the
    /// episode); nil when none is.
    package func keptTranscript(url: URL) throws(PlaybackError) -> Transcript? {
        try read { db in
            guard let cues = try String.fetchOne(db, sql: "SELECT cues FROM transcript WHERE url = ? LIMIT 1", arguments: [url.absoluteString])
            else { return nil }
            return try? JSONDecoder().decode(Transcript.self, from: Data(cues.utf8))
        }
    }

    /// Keeps a transcript fetched from `url` with every episode whose feed names that address;
    /// nothing when none does (the episode is gone).
    package func keepTranscript(_ transcript: Transcript, format: TranscriptFormat, url: URL, at date: Date = Date()) throws(PlaybackError) {
        let episodes = try read { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM episode WHERE transcriptURL = ?", arguments: [url.absoluteString])
        }
        for episodeID in episodes { try keepTranscript(transcript, format: format, episodeID: episodeID, url: url, at: date) }
    }
}
