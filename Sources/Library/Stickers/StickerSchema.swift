import GRDB

/// Stickers: short values clients keep on songs (a rating, a play count), as MPD's sticker
/// database keeps them.
///
/// - The table has no link to `song`: a sticker is addressed by its song's path, so it survives
///   a rescan (which may give the song a new row) and stays when the file disappears from the
///   index, and applies again when the file comes back: a music directory on a disk mounted
///   late, or an album moved out and back, keeps its ratings. (mpd 0.23.12 deletes a song's
///   stickers when an update removes the song; this is the one place Tonearm keeps more.)
/// - `type` is MPD's sticker domain (only `song` today), so other kinds of object can have
///   stickers later without a new table.
/// - `(type, uri, name)` is unique: setting a sticker again replaces its value.
enum StickerSchema {
    static func addStickers(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE sticker (
                type TEXT NOT NULL,
                uri TEXT NOT NULL,
                name TEXT NOT NULL,
                value TEXT NOT NULL,
                UNIQUE (type, uri, name)
            );
            """)
    }
}
