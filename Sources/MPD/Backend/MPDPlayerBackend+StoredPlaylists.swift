import Foundation
import MPDProtocol

/// Stored playlists: M3U files of song URIs (`MPDPlaylistStore`), listed, edited, saved from the
/// queue and loaded into it as mpd 0.23 does, with its arguments and its ACKs. Every change
/// wakes clients idling on `stored_playlist`.
extension MPDPlayerBackend {
    static let storedPlaylistCommands: [MPDCommandEntry] = [
        MPDCommandEntry("listplaylists", 0...0, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            try b.storedPlaylistFields()
        },
        MPDCommandEntry("listplaylist", 1...1, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            var r = MPDResponse()
            // A cue sheet (a `.cue`, or one a FLAC embeds) is a playlist of its path, as in mpd.
            if let tracks = b.catalog.sheetPlaylistEntries(a.string(0) ?? "") {
                for track in tracks { r.append("file", track.uri) }
                return r
            }
            for uri in try b.storedPlaylistToRead(a.string(0) ?? "") { r.append("file", uri) }
            return r
        },
        MPDCommandEntry("listplaylistinfo", 1...1, .read) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            var r = MPDResponse()
            if let tracks = b.catalog.sheetPlaylistEntries(a.string(0) ?? "") {
                for track in tracks { r.append(contentsOf: MPDStatus.songFields(track)) }
                return r
            }
            for uri in try b.storedPlaylistToRead(a.string(0) ?? "") {
                // A song no longer in the library is told by its URI alone, as mpd tells it.
                if let entry = b.storedSong(uri) { r.append(contentsOf: MPDStatus.songFields(entry)) } else { r.append("file", uri) }
            }
            return r
        },
        MPDCommandEntry("load", 1...3, .add) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            // A cue sheet (a `.cue`, or one a FLAC embeds) loads as a playlist of its path, as in mpd.
            if var tracks = b.catalog.sheetPlaylistEntries(a.string(0) ?? "") {
                if a.count >= 2 {
                    let range = try a.playlistRange(1)
                    let lower = min(range.lowerBound, tracks.count)
                    tracks = Array(tracks[lower..<max(lower, min(range.upperBound, tracks.count))])
                }
                let position = a.count == 3 ? try a.insertPosition(2, count: b.queue.count) : nil
                if !tracks.isEmpty { try await b.add(tracks, at: position) }
                return .empty
            }
            var uris = try b.storedPlaylistToRead(a.string(0) ?? "")
            if a.count >= 2 { uris = MPDPlaylistEdit.slice(uris, try a.playlistRange(1)) }
            let position = a.count == 3 ? try a.insertPosition(2, count: b.queue.count) : nil
            // What no longer resolves (a file moved, a station removed) is left out, as mpd does.
            let entries = uris.compactMap { b.storedSong($0) }
            if entries.count < uris.count { b.logger.info("MPD: songs of a stored playlist were not found", metadata: ["count": "\(uris.count - entries.count)"]) }
            if !entries.isEmpty { try await b.add(entries, at: position) }
            return .empty
        },
        // `save NAME [MODE]`: the mode is MPD 0.24's (`create`, the default and all 0.23 has, never
        // replaces; `append` and `replace` need the playlist to exist), so a client that knows
        // it keeps a list current without removing it first.
        MPDCommandEntry("save", 1...2, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let name = a.string(0) ?? ""
            let mode = a.count == 2 ? a.string(1) ?? "" : "create"
            let queue = b.queue.songs.map(\.entry.uri)
            switch mode {
            case "create":
                guard try !b.playlists.exists(name) else { throw MPDAck(.exist, "Playlist already exists") }
                try b.playlists.write(name, queue)
            case "append", "replace":
                guard try b.playlists.exists(name) else { throw MPDAck(.noExist, "No such playlist") }
                try b.playlists.write(name, mode == "append" ? try b.playlists.songs(name) + queue : queue)
            default:
                throw MPDAck(.argument, "Unrecognized save mode, expected one of 'create', 'append', 'replace'")
            }
            b.storedPlaylistsChanged("saved", songs: queue.count)
            return .empty
        },
        MPDCommandEntry("playlistadd", 2...3, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let name = a.string(0) ?? ""
            let added = try b.catalog.entries(for: a.string(1) ?? "").map(\.uri)
            let songs = try b.playlists.exists(name) ? try b.playlists.songs(name) : []
            let position = a.count == 3 ? try a.unsigned(2) : nil
            try b.playlists.write(name, try MPDPlaylistEdit.insert(added, into: songs, at: position))
            b.storedPlaylistsChanged("added to", songs: added.count)
            return .empty
        },
        MPDCommandEntry("playlistclear", 1...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let name = a.string(0) ?? ""
            guard try b.playlists.exists(name) else { throw MPDAck(.noExist, "No such playlist") }
            try b.playlists.write(name, [])
            b.storedPlaylistsChanged("cleared", songs: 0)
            return .empty
        },
        MPDCommandEntry("playlistdelete", 2...2, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let name = a.string(0) ?? ""
            let songs = try b.playlists.songs(name)
            try b.playlists.write(name, try MPDPlaylistEdit.delete(try a.playlistRange(1), from: songs))
            b.storedPlaylistsChanged("edited", songs: songs.count - 1)
            return .empty
        },
        MPDCommandEntry("playlistmove", 3...3, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            let name = a.string(0) ?? ""
            let songs = try b.playlists.songs(name)
            try b.playlists.write(name, try MPDPlaylistEdit.move(from: try a.unsigned(1), to: try a.unsigned(2), in: songs))
            b.storedPlaylistsChanged("edited", songs: songs.count)
            return .empty
        },
        MPDCommandEntry("rename", 2...2, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            try b.playlists.rename(a.string(0) ?? "", to: a.string(1) ?? "")
            b.storedPlaylistsChanged("renamed", songs: nil)
            return .empty
        },
        MPDCommandEntry("rm", 1...1, .control) { (b: isolated MPDPlayerBackend, a: MPDArguments) async throws(MPDAck) -> MPDResponse in
            try b.playlists.remove(a.string(0) ?? "")
            b.storedPlaylistsChanged("removed", songs: nil)
            return .empty
        },
    ]

    /// Every stored playlist as `playlist:` and `Last-Modified:`, as `listplaylists` tells them and
    /// as mpd 0.23's `lsinfo` of the root lists them after its directories (where `mpc
    /// lsplaylists` reads them).
    func storedPlaylistFields() throws(MPDAck) -> MPDResponse {
        var r = MPDResponse()
        for playlist in try playlists.list() {
            r.append("playlist", playlist.name)
            r.append("Last-Modified", playlist.modified.formatted(.iso8601))
        }
        return r
    }

    /// A stored playlist's songs for a command that only reads it (`listplaylist`,
    /// `listplaylistinfo`, `load`): a name no stored playlist can have is "No such playlist"
    /// there, as mpd answers it (it names no playlist file of the music directory either), while
    /// a command that writes refuses it as a bad name.
    func storedPlaylistToRead(_ name: String) throws(MPDAck) -> [String] {
        do { try MPDPlaylistName.validate(name) } catch { throw MPDAck(.noExist, "No such playlist") }
        return try playlists.songs(name)
    }

    /// The one song a stored playlist's line names, resolved as `add` resolves it; nil when it
    /// names nothing (any more) or a whole directory.
    func storedSong(_ uri: String) -> MPDEntry? {
        guard let entries = try? catalog.entries(for: uri), entries.count == 1 else { return nil }
        return entries[0]
    }

    /// Tells `stored_playlist` idlers, and the log (counts only: a playlist's name is the listener's).
    func storedPlaylistsChanged(_ what: String, songs: Int?) {
        logger.info("MPD stored playlist \(what)", metadata: songs.map { ["songs": "\($0)"] } ?? [:])
        changed([.storedPlaylist])
    }
}
