import Library
import MPDProtocol

/// Stickers: the values clients keep on songs (ratings, play counts), stored in the library
/// database (`LibraryStore+Stickers`) under the song's path in the music directory, so they
/// survive a rescan and a song that leaves the index for a while (mpd 0.23.12 deletes them with
/// the song; `StickerSchema` says why Tonearm keeps them). Answers and ACKs are mpd 0.23's: a song must be in the database for `get`, `set`, `list`
/// and `delete`, and `find` lists only songs that still are. mpd asks admin permission for every
/// sticker command, reading ones too.
extension MPDPlayerBackend {
    static let stickerCommands: [MPDCommandEntry] = [
        MPDCommandEntry("sticker", 3..., .admin) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let request = try MPDStickerRequest(a.command.arguments)
            let answer = try b.answer(request)
            if request.changes { b.changed([.sticker]) }
            return answer
        }
    ]

    private func answer(_ request: MPDStickerRequest) throws(MPDAck) -> MPDResponse {
        let store = catalog.library.store
        switch request {
        case .get(let uri, let name):
            let path = try songPath(uri)
            // mpd 0.23 tells an empty value as no sticker at all (`list` and `find` show it).
            guard let value = try stickers({ () throws(StickerError) in try store.sticker(.song, uri: path, name: name) }), !value.isEmpty else {
                throw MPDStickerAnswers.noSuchSticker
            }
            return MPDResponse([MPDStickerAnswers.field(name, value)])
        case .list(let uri):
            let path = try songPath(uri)
            let all = try stickers { () throws(StickerError) in try store.stickers(.song, uri: path) }
            return MPDResponse(all.map { MPDStickerAnswers.field($0.name, $0.value) })
        case .set(let uri, let name, let value):
            let path = try songPath(uri)
            // mpd 0.23 answers OK to a sticker without a name and keeps nothing.
            guard !name.isEmpty else { return .empty }
            try stickers { () throws(StickerError) in try store.setSticker(.song, uri: path, name: name, value: value) }
            logger.debug("MPD sticker set")
            return .empty
        case .delete(let uri, let name):
            let path = try songPath(uri)
            let deleted = try stickers { () throws(StickerError) in try store.deleteStickers(.song, uri: path, name: name) }
            guard deleted > 0 else { throw MPDStickerAnswers.noSuchSticker }
            logger.debug("MPD stickers deleted", metadata: ["count": "\(deleted)"])
            return .empty
        case .find(let directory, let name, let comparison):
            guard let folder = Self.musicFolder(directory) else { return .empty }
            let matches = try stickers { () throws(StickerError) in try store.findStickers(.song, under: folder, name: name, comparison) }
            guard !matches.isEmpty else { return .empty }
            // A sticker whose song left the index is kept but not listed: mpd, which deletes
            // it, lists no such song either.
            let indexed = Set(try databaseSongs().map(\.record.path))
            var r = MPDResponse()
            for match in matches where indexed.contains(match.uri) {
                r.append("file", "\(MPDDatabaseSong.root)/\(match.uri)")
                r.fields.append(MPDStickerAnswers.field(name, match.value))
            }
            return r
        }
    }

    /// The path in the music directory of the indexed song `uri` names (`Music/…`); anything
    /// else (a folder, a station, a file that is not a song, a path that leaves the directory)
    /// is "No such song", as mpd answers for a URI not in its database.
    private func songPath(_ uri: String) throws(MPDAck) -> String {
        let prefix = MPDDatabaseSong.root + "/"
        guard uri.hasPrefix(prefix) else { throw MPDStickerAnswers.noSuchSong }
        let path = String(uri.dropFirst(prefix.count))
        let song: MusicSongRecord?
        do { song = try catalog.library.store.musicSong(path: path) } catch {
            throw MPDAck(.system, "The music index cannot be read (\(error.code.typeName))")
        }
        guard let song, song.failure == nil else { throw MPDStickerAnswers.noSuchSong }
        return song.path
    }

    /// The folder of the music directory `sticker find` searches under: "" for the whole
    /// catalog or `Music`, the path below `Music/` otherwise; nil for any other folder (no song
    /// of the index is under it). A trailing `/` finds nothing, as in mpd.
    static func musicFolder(_ directory: String) -> String? {
        if directory.isEmpty || directory == MPDDatabaseSong.root { return "" }
        let prefix = MPDDatabaseSong.root + "/"
        guard directory.hasPrefix(prefix), directory.count > prefix.count else { return nil }
        return String(directory.dropFirst(prefix.count))
    }

    private func stickers<T>(_ body: () throws(StickerError) -> T) throws(MPDAck) -> T {
        do { return try body() } catch { throw MPDStickerAnswers.ack(error) }
    }
}
