import Foundation
import Library
import LibraryKit
import MPDProtocol
import PlayerCore

/// The music database: `list`, `find`, `search`, `count`, the adds that find songs (to the queue,
/// or to a stored playlist with `searchaddpl`), the listings
/// of the whole tree, and `update`/`rescan`, all over the library's music index (the `Music`
/// folder of the catalog). Stations, podcasts and sessions stay browsable with `lsinfo`.
extension MPDPlayerBackend {
    static let databaseCommands: [MPDCommandEntry] = [
        MPDCommandEntry("list", 1..., .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let request = try MPDListRequest(a.command.arguments, parser: MPDFilterParser(tags: SongTag.allCases.map(\.rawValue)))
            return MPDDatabaseQueries.list(request, in: try b.databaseSongs())
        },
        MPDCommandEntry("find", 1..., .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            try b.printed(try b.found(a, foldCase: false), client: a.command.client)
        },
        MPDCommandEntry("search", 1..., .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            try b.printed(try b.found(a, foldCase: true), client: a.command.client)
        },
        MPDCommandEntry("findadd", 1..., .add) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            try await b.addFound(try b.found(a, foldCase: false))
        },
        MPDCommandEntry("searchadd", 1..., .add) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            try await b.addFound(try b.found(a, foldCase: true))
        },
        MPDCommandEntry("searchaddpl", 2..., .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            try b.appendFound(toPlaylist: a)
        },
        MPDCommandEntry("count", 1..., .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            var arguments = a.command.arguments
            var group: String?
            if arguments.count >= 2, arguments[arguments.count - 2] == "group" {
                guard let tag = SongTag(mpdName: arguments[arguments.count - 1]) else {
                    throw MPDAck(.argument, "Unknown tag type: \(arguments[arguments.count - 1])")
                }
                group = tag.rawValue
                arguments.removeLast(2)
            }
            let filter = arguments.isEmpty ? nil : try MPDPlayerBackend.filterParser(foldCase: false).parse(arguments)
            return MPDDatabaseQueries.count(filter, group: group, in: try b.databaseSongs())
        },
        MPDCommandEntry("listall", 0...1, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            try b.tree(a.string(0) ?? "", info: false, client: a.command.client)
        },
        MPDCommandEntry("listallinfo", 0...1, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            try b.tree(a.string(0) ?? "", info: true, client: a.command.client)
        },
        MPDCommandEntry("update", 0...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            MPDResponse([.init("updating_db", String(try b.startUpdate(rescan: false)))])
        },
        MPDCommandEntry("rescan", 0...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            MPDResponse([.init("updating_db", String(try b.startUpdate(rescan: true)))])
        },
    ]

    static func filterParser(foldCase: Bool) -> MPDFilterParser {
        MPDFilterParser(tags: SongTag.allCases.map(\.rawValue), foldCase: foldCase)
    }

    /// Every indexed song, in path order. Kept in memory between commands, as mpd keeps its
    /// database: read again after an update of this daemon's, or when the index's stamp says
    /// another process (`tonearm music update`) finished one.
    func databaseSongs() throws(MPDAck) -> [MPDDatabaseSong] {
        do {
            let store = catalog.library.store
            let stamp = try store.musicUpdateStamp()
            if let cached = songCache, cached.stamp == stamp { return cached.songs }
            // A file whose tags could not be read is not a song of the database, as in mpd
            // (`tonearm music failures` lists them).
            let view = catalog.databaseView(of: try store.musicSongs().filter { $0.failure == nil })
            let songs = view.songs.map(MPDDatabaseSong.init)
            songCache = SongCache(stamp: stamp, songs: songs, embeddedCueHosts: view.hosts)
            return songs
        } catch {
            throw MPDAck(.system, "The music index cannot be read (\(error.code.typeName))")
        }
    }

    /// The songs the database commands last read, and the update they are from.
    struct SongCache {
        let stamp: Double?
        let songs: [MPDDatabaseSong]
        /// FLAC files among `songs` with an embedded cue sheet: mpd follows each with its
        /// `playlist:` line (`MPDCatalog.databaseView`).
        var embeddedCueHosts: Set<String> = []
    }

    /// The `playlist:` line mpd prints after a song whose file embeds a cue sheet.
    private func embeddedCuePlaylist(_ song: MPDDatabaseSong, into r: inout MPDResponse) {
        if songCache?.embeddedCueHosts.contains(song.record.path) == true { r.append("playlist", song.uri) }
    }

    /// `find`/`search FILTER [sort TYPE] [window START:END]`.
    private func found(_ a: MPDArguments, foldCase: Bool) throws(MPDAck) -> [MPDDatabaseSong] {
        var arguments = a.command.arguments
        var window = MPDDatabaseQueries.Window()
        while arguments.count >= 3 {
            let keyword = arguments[arguments.count - 2]
            if keyword == "window" {
                let range = try MPDArguments(MPDCommand("window", [arguments[arguments.count - 1]])).range(0, count: Int.max)
                window.range = range
            } else if keyword == "sort" {
                window.sort = arguments[arguments.count - 1]
            } else {
                break
            }
            arguments.removeLast(2)
        }
        let filter = try Self.filterParser(foldCase: foldCase).parse(arguments)
        return MPDDatabaseQueries.find(filter, window: window, in: try databaseSongs())
    }

    private func printed(_ songs: [MPDDatabaseSong], client: MPDClientState) throws(MPDAck) -> MPDResponse {
        var r = MPDResponse()
        for song in songs {
            r.append(contentsOf: client.songFields(song.fields()))
            embeddedCuePlaylist(song, into: &r)
        }
        return r
    }

    /// Queues the songs found, at the end, as `add` queues them.
    private func addFound(_ songs: [MPDDatabaseSong]) async throws(MPDAck) -> MPDResponse {
        var entries: [MPDEntry] = []
        for song in songs where song.record.failure == nil {
            entries += try catalog.entries(for: song.uri)
        }
        try await add(entries, at: nil)
        return .empty
    }

    /// `searchaddpl NAME FILTER [sort TYPE] [window START:END]`: the songs `search` finds,
    /// appended to stored playlist NAME (made when it is new). As in mpd 0.23, a search that
    /// finds nothing writes nothing, so it makes no empty playlist and wakes no idler.
    private func appendFound(toPlaylist a: MPDArguments) throws(MPDAck) -> MPDResponse {
        let name = a.string(0) ?? ""
        try MPDPlaylistName.validate(name)
        let search = MPDArguments(MPDCommand(a.command.name, Array(a.command.arguments.dropFirst()), client: a.command.client))
        let songs = try found(search, foldCase: true)
        guard !songs.isEmpty else { return .empty }
        let existing = try playlists.exists(name) ? try playlists.songs(name) : []
        try playlists.write(name, try MPDPlaylistEdit.insert(songs.map(\.uri), into: existing, at: nil))
        storedPlaylistsChanged("added to", songs: songs.count)
        return .empty
    }

    /// `listall`/`listallinfo PATH`: every folder and song under `path`, recursively. Under the
    /// root and `Music` it reads the index; the library's own folders list as `lsinfo` does.
    private func tree(_ path: String, info: Bool, client: MPDClientState) throws(MPDAck) -> MPDResponse {
        let parts = try MPDCatalog.split(path)
        let root = MPDDatabaseSong.root
        if let first = parts.first, first != root {
            // Stations, podcasts, sessions: one level, as lsinfo gives it.
            return try catalog.list(path)
        }
        let directory = parts.dropFirst().joined(separator: "/")
        let all = try databaseSongs()
        // A song's own path: that song alone, as mpd answers it.
        if !directory.isEmpty, let song = all.first(where: { $0.record.path == directory }) {
            var r = info ? client.songFields(song.fields()) : MPDResponse([.init("file", song.uri)])
            embeddedCuePlaylist(song, into: &r)
            return r
        }
        let songs = all.filter { directory.isEmpty || $0.record.directory == directory || $0.record.directory.hasPrefix(directory + "/") }
        if !directory.isEmpty, songs.isEmpty { throw MPDAck(.noExist, "No such directory") }
        var r = MPDResponse()
        if parts.isEmpty {
            for other in MPDCatalog.Root.allCases where other != .music { r.append("directory", other.rawValue) }
            r.append("directory", root)
        }
        // The folder itself (below the top), then each folder with its songs, as mpd walks its
        // tree; `listallinfo` gives each folder's modification time.
        let folders = MPDDatabaseQueries.directories(of: songs, under: directory)
        for folder in [directory] + folders {
            if !folder.isEmpty {
                r.append("directory", "\(root)/\(folder)")
                if info, let modified = catalog.musicFolderModified(folder) { r.append("Last-Modified", MPDDatabaseSong.timestamp(modified)) }
            }
            for song in songs where song.record.directory == folder {
                if info { r.append(contentsOf: client.songFields(song.fields())) } else { r.append("file", song.uri) }
                embeddedCuePlaylist(song, into: &r)
            }
            // A cue sheet is a playlist of its folder too (and a folder of its tracks), as mpd lists it.
            for sheet in folders where MusicFiles.isCueSheet(name: (sheet as NSString).lastPathComponent) && MusicFiles.directory(of: sheet) == folder {
                r.append("playlist", "\(root)/\(sheet)")
                if info, let modified = catalog.musicFolderModified(sheet) { r.append("Last-Modified", MPDDatabaseSong.timestamp(modified)) }
            }
        }
        return r
    }

    /// Starts (or queues) an update of the music index; its job id.
    private func startUpdate(rescan: Bool) throws(MPDAck) -> Int {
        guard let directory = catalog.musicDirectory else { throw MPDAck(.noExist, "No music directory") }
        let (job, startNow) = databaseUpdates.request(rescan: rescan)
        if startNow { runUpdate(job: job, rescan: rescan, directory: directory) }
        return job
    }

    /// Brings the index up to date now and keeps it so while the daemon runs: an update at once,
    /// then one whenever the music directory changes (a change during an update queues one more,
    /// never a pile). Without inotify, the index is updated when a client asks.
    package func keepMusicIndexCurrent() {
        guard let directory = catalog.musicDirectory, FileManager.default.fileExists(atPath: directory.path) else { return }
        let (job, startNow) = databaseUpdates.request(rescan: false)
        if startNow { runUpdate(job: job, rescan: false, directory: directory) }
        let logger = logger
        musicWatch.withLock { watch in
            watch = MusicDirectoryWatch(root: directory) { [weak self] change in
                if change == .overflowed { logger.info("music directory events were lost; updating the whole index") }
                Task { await self?.musicDirectoryChanged(directory) }
            }
            if watch == nil { logger.warning("the music directory cannot be watched; MPD's update keeps the index current") }
        }
    }

    private func musicDirectoryChanged(_ directory: URL) {
        guard let (job, startNow) = databaseUpdates.requestForChange() else { return }
        if startNow { runUpdate(job: job, rescan: false, directory: directory) }
    }

    /// Runs one update on a thread of its own (it opens files), then the next queued one.
    /// `idle update` fires when a job starts and ends, `idle database` when the index changed.
    private func runUpdate(job: Int, rescan: Bool, directory: URL) {
        changed([.update])
        let indexer = catalog.library.musicIndexer(directory: directory, logger: logger)
        let logger = logger
        Task.detached { [weak self] in
            let changedIndex: Bool
            do throws(PlaybackError) {
                changedIndex = try indexer.update(rereadAll: rescan).changedIndex
            } catch {
                logger.warning("music index update failed", metadata: ["job": "\(job)", "error": "\(error.errorType)"])
                changedIndex = false
            }
            await self?.updateEnded(changedIndex: changedIndex, directory: directory)
        }
    }

    private func updateEnded(changedIndex: Bool, directory: URL) {
        songCache = nil
        changed(changedIndex ? [.update, .database] : [.update])
        if let next = databaseUpdates.finished() { runUpdate(job: next.job, rescan: next.rescan, directory: directory) }
    }
}
