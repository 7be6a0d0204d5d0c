import GRDB

/// The full-text index behind `LibraryStore.search`: SQLite's FTS5, kept in step with the tables
/// by triggers, so every way a podcast, an episode or a transcript is written, changed or deleted
/// (a cascade included) updates the index in the same transaction.
///
/// - `podcastSearch` and `episodeSearch` index the rows of `podcast` and `episode` in place
///   (external content: the text is not stored twice).
/// - `cueSearch` holds one row per transcript cue, read out of the transcript's JSON with
///   `json_each`; its rowid is `episodeId * cueRowidStride + cue index`, so an episode's cues are
///   deleted by a rowid range (FTS5 has no index on its other columns).
/// - The tokenizer is `unicode61` with diacritics removed: it splits and case-folds every script
///   (Cyrillic, Greek, accented Latin), so Russian text is found like English.
enum LibrarySearchSchema {
    /// More than `Transcript.maxCues`, a power of two.
    static let cueRowidStride: Int64 = 32_768

    static func addSearch(_ db: Database) throws {
        try db.execute(sql: """
            CREATE VIRTUAL TABLE podcastSearch USING fts5(
                title, author, summary, content='podcast', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
            CREATE VIRTUAL TABLE episodeSearch USING fts5(
                title, summary, content='episode', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
            CREATE VIRTUAL TABLE cueSearch USING fts5(
                text, speaker, episodeId UNINDEXED, start UNINDEXED, tokenize='unicode61 remove_diacritics 2');

            CREATE TRIGGER podcastSearch_insert AFTER INSERT ON podcast BEGIN
                INSERT INTO podcastSearch (rowid, title, author, summary) VALUES (new.id, new.title, new.author, new.summary);
            END;
            CREATE TRIGGER podcastSearch_delete AFTER DELETE ON podcast BEGIN
                INSERT INTO podcastSearch (podcastSearch, rowid, title, author, summary)
                VALUES ('delete', old.id, old.title, old.author, old.summary);
            END;
            CREATE TRIGGER podcastSearch_update AFTER UPDATE OF title, author, summary ON podcast
            WHEN old.title IS NOT new.title OR old.author IS NOT new.author OR old.summary IS NOT new.summary BEGIN
                INSERT INTO podcastSearch (podcastSearch, rowid, title, author, summary)
                VALUES ('delete', old.id, old.title, old.author, old.summary);
                INSERT INTO podcastSearch (rowid, title, author, summary) VALUES (new.id, new.title, new.author, new.summary);
            END;

            CREATE TRIGGER episodeSearch_insert AFTER INSERT ON episode BEGIN
                INSERT INTO episodeSearch (rowid, title, summary) VALUES (new.id, new.title, new.summary);
            END;
            CREATE TRIGGER episodeSearch_delete AFTER DELETE ON episode BEGIN
                INSERT INTO episodeSearch (episodeSearch, rowid, title, summary) VALUES ('delete', old.id, old.title, old.summary);
            END;
            CREATE TRIGGER episodeSearch_update AFTER UPDATE OF title, summary ON episode
            WHEN old.title IS NOT new.title OR old.summary IS NOT new.summary BEGIN
                INSERT INTO episodeSearch (episodeSearch, rowid, title, summary) VALUES ('delete', old.id, old.title, old.summary);
                INSERT INTO episodeSearch (rowid, title, summary) VALUES (new.id, new.title, new.summary);
            END;

            CREATE TRIGGER cueSearch_insert AFTER INSERT ON transcript BEGIN
                \(indexCues(of: "new"));
            END;
            CREATE TRIGGER cueSearch_delete AFTER DELETE ON transcript BEGIN
                \(unindexCues(of: "old"));
            END;
            CREATE TRIGGER cueSearch_update AFTER UPDATE OF cues ON transcript BEGIN
                \(unindexCues(of: "old"));
                \(indexCues(of: "new"));
            END;

            INSERT INTO podcastSearch (podcastSearch) VALUES ('rebuild');
            INSERT INTO episodeSearch (episodeSearch) VALUES ('rebuild');
            \(indexCues(of: "t", from: "transcript AS t, "));
            """)
    }

    /// Indexes the cues of the transcript row `row` (a trigger's `new`, or the alias of a table
    /// that `from` names): one FTS row per cue, its start only when the transcript is timed.
    private static func indexCues(of row: String, from: String = "") -> String {
        """
        INSERT INTO cueSearch (rowid, text, speaker, episodeId, start)
        SELECT \(row).episodeId * \(cueRowidStride) + cue.key, json_extract(cue.value, '$.text'), json_extract(cue.value, '$.speaker'),
            \(row).episodeId, CASE WHEN json_extract(\(row).cues, '$.timed') THEN json_extract(cue.value, '$.start') END
        FROM \(from)json_each(\(row).cues, '$.cues') AS cue
        """
    }

    /// Removes the cues of the transcript row `row` from the index, by their rowid range.
    private static func unindexCues(of row: String) -> String {
        "DELETE FROM cueSearch WHERE rowid BETWEEN \(row).episodeId * \(cueRowidStride) AND \(row).episodeId * \(cueRowidStride) + \(cueRowidStride - 1)"
    }
}
