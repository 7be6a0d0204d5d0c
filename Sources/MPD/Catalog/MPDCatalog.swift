import AudioEngine
import Foundation
import Library
import LibraryKit
import MPDProtocol
import PlayerCore
import PlayerKit

/// The library as MPD clients browse it: four directories at the root (`Stations`, `Podcasts`,
/// each podcast a directory of its episodes, `Sessions`, and `Music`, the music directory's own
/// folders and audio files), every song addressed by a path of names. A client adds a path (a
/// song, or a directory for all its songs) or an http(s) URL, which plays as a live stream.
///
/// Names are the library's own, with `/` written as `∕` so a title never makes a path deeper.
/// Reads the library store on every call (the store is the one truth; it may change under a
/// running daemon, from another `tonearm`).
package struct MPDCatalog: Sendable {
    package enum Root: String, CaseIterable, Sendable {
        case stations = "Stations", podcasts = "Podcasts", sessions = "Sessions", music = "Music"
    }

    package let library: LibraryContext
    /// Nil when the listener has none (then `Music` is empty).
    package let musicDirectory: URL?

    /// Extensions the music directory's files are listed by (what FFmpeg here decodes).
    package static let audioExtensions: Set<String> = [
        "mp3", "ogg", "oga", "opus", "flac", "m4a", "m4b", "aac", "wav", "mka", "webm", "wma", "aif", "aiff",
    ]

    package init(library: LibraryContext, musicDirectory: URL?) {
        self.library = library
        self.musicDirectory = musicDirectory
    }

    /// A library name as one path component.
    package static func component(_ name: String) -> String {
        let cleaned = name.replacingOccurrences(of: "/", with: "∕")
        return cleaned.isEmpty ? "-" : cleaned
    }

    /// An http(s) address a client added: a live stream, as MPD plays every URL.
    package static func isStreamURL(_ uri: String) -> Bool {
        guard let url = URL(string: uri), let scheme = url.scheme?.lowercased() else { return false }
        return (scheme == "http" || scheme == "https") && url.host != nil
    }

    // MARK: Browsing

    /// `lsinfo PATH`: the directories and songs directly under `path` ("" or "/" is the root).
    package func list(_ path: String) throws(MPDAck) -> MPDResponse {
        let parts = try Self.split(path)
        var r = MPDResponse()
        guard let first = parts.first else {
            for root in Root.allCases { r.append("directory", root.rawValue) }
            return r
        }
        guard let root = Root(rawValue: first) else { throw MPDAck(.noExist, "No such directory") }
        switch (root, parts.count) {
        case (.stations, 1):
            for station in try read({ () throws(PlaybackError) in try library.store.stations() }) {
                r.append(contentsOf: MPDStatus.songFields(stationEntry(station)))
            }
        case (.podcasts, 1):
            for podcast in try read({ () throws(PlaybackError) in try library.store.podcasts() }) {
                r.append("directory", "\(Root.podcasts.rawValue)/\(Self.component(podcast.title))")
            }
        case (.podcasts, 2):
            let podcast = try podcast(named: parts[1])
            for episode in try read({ () throws(PlaybackError) in try library.store.episodes(podcastID: podcast.id) }) {
                r.append(contentsOf: MPDStatus.songFields(episodeEntry(episode, podcast: podcast, start: 0)))
            }
        case (.sessions, 1):
            for session in try read({ () throws(PlaybackError) in try library.store.sessions() }) {
                r.append("file", "\(Root.sessions.rawValue)/\(Self.component(session.name))")
                r.append("Title", session.name)
            }
        case (.music, _):
            let relative = parts.dropFirst().joined(separator: "/")
            if let sheet = cueListing(relative) { return sheet }
            let directory = try musicPath(Array(parts.dropFirst()), directory: true)
            // What the disk holds now, told with the index's tags where the file is indexed
            // (an update not yet run leaves the file name as its title).
            let indexed = Dictionary(
                (try? library.store.musicSongs(inDirectory: relative))?.map { ($0.fileName, $0) } ?? [], uniquingKeysWith: { a, _ in a })
            let images = cueImages(inFolder: relative)
            var folders: [String] = []
            var sheets: [String] = []
            for (name, isDirectory) in try musicListing(directory) where !images.contains(name) {
                let uri = (parts + [name]).joined(separator: "/")
                if isDirectory {
                    folders.append(uri)
                } else if MusicFiles.isCueSheet(name: name) {
                    // A sheet is a playlist and a folder of its tracks, once the index read it.
                    if !cueTracks(inSheet: relative.isEmpty ? name : relative + "/" + name).isEmpty { sheets.append(uri) }
                } else if let song = indexed[name] ?? embeddedCueHost(relative.isEmpty ? name : relative + "/" + name) {
                    // A file the index could not read is no song, as in mpd.
                    if song.failure == nil { r.append(contentsOf: MPDDatabaseSong(song).fields()) }
                    // A FLAC with an embedded sheet (left out of the index's listing, as an
                    // image) is a song and a playlist, as in mpd.
                    if indexed[name] == nil { r.append("playlist", uri) }
                } else {
                    r.append("file", uri)
                    r.append("Title", (name as NSString).deletingPathExtension)
                }
            }
            // Songs, then playlists, then folders, as mpd lists a directory, each with its date.
            for sheet in sheets {
                r.append("playlist", sheet)
                if let modified = musicFolderModified(sheet.split(separator: "/").dropFirst().joined(separator: "/")) {
                    r.append("Last-Modified", MPDDatabaseSong.timestamp(modified))
                }
            }
            for folder in sheets + folders {
                r.append("directory", folder)
                if let modified = musicFolderModified(folder.split(separator: "/").dropFirst().joined(separator: "/")) {
                    r.append("Last-Modified", MPDDatabaseSong.timestamp(modified))
                }
            }
        default:
            throw MPDAck(.noExist, "No such directory")
        }
        return r
    }

    // MARK: Adding

    /// What `add PATH` queues: one song for a song's path or a URL, every song of a directory in
    /// order (a podcast's episodes, the stations, a music folder and its subfolders).
    package func entries(for uri: String) throws(MPDAck) -> [MPDEntry] {
        if Self.isStreamURL(uri) {
            let track = Track.commandLineSource(uri, index: 0, finite: false)
            return [MPDEntry(uri: uri, track: track)]
        }
        let parts = try Self.split(uri)
        guard let first = parts.first else {
            throw MPDAck(.argument, "Adding the whole library at once is not supported; add a directory or a song")
        }
        guard let root = Root(rawValue: first) else { throw MPDAck(.noExist, "No such song or directory") }
        switch (root, parts.count) {
        case (.stations, 1):
            return try read({ () throws(PlaybackError) in try library.store.stations() }).map(stationEntry)
        case (.stations, 2):
            let stations = try read({ () throws(PlaybackError) in try library.store.stations() })
            guard let station = stations.first(where: { Self.component($0.name) == parts[1] }) else {
                throw MPDAck(.noExist, "No such station")
            }
            return [stationEntry(station)]
        case (.podcasts, 2), (.podcasts, 3):
            let podcast = try podcast(named: parts[1])
            var episodes = try read({ () throws(PlaybackError) in try library.store.episodes(podcastID: podcast.id) })
            if parts.count == 3 {
                guard let episode = episodes.first(where: { Self.component($0.title) == parts[2] }) else {
                    throw MPDAck(.noExist, "No such episode")
                }
                episodes = [episode]
            }
            var entries: [MPDEntry] = []
            for episode in episodes {
                if let entry = try episodeToQueue(episode, podcast: podcast, alone: parts.count == 3) { entries.append(entry) }
            }
            return entries
        case (.sessions, 2):
            let sessions = try read({ () throws(PlaybackError) in try library.store.sessions() })
            guard let session = sessions.first(where: { Self.component($0.name) == parts[1] }) else {
                throw MPDAck(.noExist, "No such session")
            }
            let request = try read({ () throws(PlaybackError) in try SessionLoader.request(for: session.path) })
            let duration = request.items.allSatisfy { $0.track.duration != nil } ? request.items.compactMap(\.track.duration).reduce(0, +) : nil
            return [MPDEntry(uri: uri, items: request.items, title: session.name, duration: duration, layers: request.layers)]
        case (.music, _):
            if let tracks = try cueEntries(parts.dropFirst().joined(separator: "/")) { return tracks }
            let path = try musicPath(Array(parts.dropFirst()), directory: nil)
            return try musicEntries(path, uri: parts.joined(separator: "/"))
        default:
            throw MPDAck(.noExist, "No such song or directory")
        }
    }

    /// The episode's song as it should start now: from its saved place (the place may have moved
    /// since it was queued), from its downloaded file when it is whole on disk.
    package func refreshedEpisode(_ entry: MPDEntry) -> MPDEntry {
        guard let id = entry.episodeID, case .play(let request)? = try? library.episodeToPlay(id: id) else { return entry }
        var refreshed = entry
        refreshed.items = request.items.map { QueueItem(track: $0.track, startPosition: request.startPosition) }
        return refreshed
    }

    // MARK: Parts

    private func stationEntry(_ station: StationRecord) -> MPDEntry {
        let track = station.station.track
        return MPDEntry(uri: "\(Root.stations.rawValue)/\(Self.component(station.name))", track: track, name: station.name)
    }

    private func episodeEntry(_ episode: EpisodeRecord, podcast: PodcastRecord, start: Double) -> MPDEntry {
        MPDEntry(
            uri: "\(Root.podcasts.rawValue)/\(Self.component(podcast.title))/\(Self.component(episode.title))", items: [],
            episodeID: episode.id, title: episode.title, artist: podcast.author, album: podcast.title, duration: episode.duration)
    }

    /// An episode without audio cannot be queued: alone it is the client's error, in a
    /// directory it is left out.
    private func episodeToQueue(_ episode: EpisodeRecord, podcast: PodcastRecord, alone: Bool) throws(MPDAck) -> MPDEntry? {
        var entry = episodeEntry(episode, podcast: podcast, start: 0)
        switch try read({ () throws(PlaybackError) in try library.episodeToPlay(id: episode.id) }) {
        case .play(let request):
            entry.items = request.items.map { QueueItem(track: $0.track, startPosition: request.startPosition) }
            return entry
        case .cannotPlay(let error):
            if alone { throw MPDAck(.noExist, "This episode cannot play: \(error.code.typeName)") }
            return nil
        }
    }

    private func podcast(named name: String) throws(MPDAck) -> PodcastRecord {
        let podcasts = try read({ () throws(PlaybackError) in try library.store.podcasts() })
        guard let podcast = podcasts.first(where: { Self.component($0.title) == name }) else { throw MPDAck(.noExist, "No such podcast") }
        return podcast
    }

    /// A path's names; `..`, `.` and empty names are refused, so no path leaves its root.
    package static func split(_ path: String) throws(MPDAck) -> [String] {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard !parts.contains(where: { $0 == ".." || $0 == "." }) else { throw MPDAck(.argument, "Malformed path") }
        return parts
    }

    /// The file or folder `parts` names under the music directory, refused when it is not there or,
    /// through a symbolic link, lies outside it. `directory` nil accepts either.
    private func musicPath(_ parts: [String], directory: Bool?) throws(MPDAck) -> URL {
        guard let musicDirectory else { throw MPDAck(.noExist, "No music directory") }
        let base = musicDirectory.resolvingSymlinksInPath().standardizedFileURL
        let url = parts.reduce(base) { $0.appendingPathComponent($1) }.resolvingSymlinksInPath().standardizedFileURL
        guard url.path == base.path || url.path.hasPrefix(base.path + "/") else { throw MPDAck(.noExist, "No such song or directory") }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw MPDAck(.noExist, parts.isEmpty ? "The music directory does not exist" : "No such song or directory")
        }
        if let directory, directory != isDirectory.boolValue { throw MPDAck(.noExist, "No such directory") }
        return url
    }

    /// A folder's subfolders and audio files, sorted by name, hidden ones left out.
    private func musicListing(_ directory: URL) throws(MPDAck) -> [(name: String, isDirectory: Bool)] {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory.path) } catch {
            throw MPDAck(.system, "The folder cannot be read")
        }
        return names.filter { !$0.hasPrefix(".") }.sorted { $0.localizedStandardCompare($1) == .orderedAscending }.compactMap { name in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path, isDirectory: &isDirectory) else {
                return nil
            }
            if isDirectory.boolValue { return (name, true) }
            let isListed = Self.audioExtensions.contains((name as NSString).pathExtension.lowercased()) || MusicFiles.isCueSheet(name: name)
            return isListed ? (name, false) : nil
        }
    }

    /// Songs for a music file, or for every audio file under a folder (depth first, sorted).
    private func musicEntries(_ url: URL, uri: String, depth: Int = 0) throws(MPDAck) -> [MPDEntry] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            // A cue sheet in a folder added whole: its tracks (none before the index read it).
            if MusicFiles.isCueSheet(name: url.lastPathComponent) {
                return try cueEntries(uri.split(separator: "/").dropFirst().joined(separator: "/")) ?? []
            }
            let track = Track.commandLineSource(url.path, index: 0, finite: true)
            var entry = MPDEntry(uri: uri, track: track)
            entry.modified = ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date)?.timeIntervalSince1970
            return [entry]
        }
        // A link cycle or an absurdly deep tree is not followed further.
        guard depth < 16 else { return [] }
        var entries: [MPDEntry] = []
        let images = cueImages(inFolder: uri.split(separator: "/").dropFirst().joined(separator: "/"))
        for (name, _) in try musicListing(url) where !images.contains(name) {
            entries += try musicEntries(url.appendingPathComponent(name), uri: "\(uri)/\(name)", depth: depth + 1)
            if entries.count > MPDQueue.maximumLength { throw MPDAck(.playlistMax, "Playlist is too large") }
        }
        return entries
    }

    /// When the music folder at `relative` last changed (seconds since 1970), nil when it is not
    /// there.
    package func musicFolderModified(_ relative: String) -> Double? {
        guard let musicDirectory else { return nil }
        let url = relative.isEmpty ? musicDirectory : musicDirectory.appendingPathComponent(relative)
        guard let date = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date else { return nil }
        return date.timeIntervalSince1970
    }

    /// A library read whose failure a client is told of as MPD tells a system error.
    private func read<T>(_ body: () throws(PlaybackError) -> T) throws(MPDAck) -> T {
        do { return try body() } catch { throw MPDAck(.system, "The library cannot be read (\(error.code.typeName))") }
    }
}
