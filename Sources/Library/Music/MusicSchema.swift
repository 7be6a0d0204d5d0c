import GRDB

/// The music directory's index: one row per audio file, with what its tags say, so browsing and
/// searching never open a file.
///
/// - `song.path` is relative to the music directory, `/`-separated: the index survives the
///   directory being moved or mounted elsewhere, and MPD addresses songs by that path.
/// - `modified` and `size` are what a later update compares to decide whether to read a file
///   again; an unchanged file is never opened.
/// - `tags` is the whole `SongTags` as JSON (its many tags vary by file); the columns beside it
///   copy what search and sorting need, joined by newlines where a tag has several values.
/// - A file that could not be read is a row too, with `failure` set to its typed error's code
///   and no tags: it is listed as a failure, never silently missing, and read again when it
///   changes.
/// - `songSearch` is FTS5 over the text columns, kept in step by triggers, with the same
///   `unicode61 remove_diacritics 2` tokenizer as the podcast search: Cyrillic and accented Latin
///   are found alike.
enum MusicSchema {
    static func addMusic(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE song (
                id INTEGER PRIMARY KEY,
                path TEXT NOT NULL UNIQUE,
                directory TEXT NOT NULL,
                modified DOUBLE NOT NULL,
                size INTEGER NOT NULL,
                added DOUBLE NOT NULL,
                tags TEXT NOT NULL,
                failure INTEGER,
                title TEXT, artist TEXT, album TEXT, albumArtist TEXT, genre TEXT, composer TEXT, performer TEXT,
                date TEXT, trackNumber INTEGER, discNumber INTEGER, duration DOUBLE
            );
            CREATE INDEX song_directory ON song(directory);

            CREATE TABLE musicUpdate (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                finishedAt DOUBLE NOT NULL
            );

            CREATE VIRTUAL TABLE songSearch USING fts5(
                title, artist, album, albumArtist, genre, composer, performer, path,
                content='song', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
            CREATE TRIGGER songSearch_insert AFTER INSERT ON song BEGIN
                INSERT INTO songSearch (rowid, \(columns)) VALUES (new.id, \(values("new")));
            END;
            CREATE TRIGGER songSearch_delete AFTER DELETE ON song BEGIN
                INSERT INTO songSearch (songSearch, rowid, \(columns)) VALUES ('delete', old.id, \(values("old")));
            END;
            CREATE TRIGGER songSearch_update AFTER UPDATE ON song BEGIN
                INSERT INTO songSearch (songSearch, rowid, \(columns)) VALUES ('delete', old.id, \(values("old")));
                INSERT INTO songSearch (rowid, \(columns)) VALUES (new.id, \(values("new")));
            END;
            """)
    }

    private static let indexed = ["title", "artist", "album", "albumArtist", "genre", "composer", "performer", "path"]
    private static var columns: String { indexed.joined(separator: ", ") }
    private static func values(_ row: String) -> String { indexed.map { "\(row).\($0)" }.joined(separator: ", ") }
}
