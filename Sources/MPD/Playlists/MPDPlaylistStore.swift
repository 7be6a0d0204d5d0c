import Foundation
import MPDProtocol
import PlayerCore

#if canImport(Glibc)
    import Glibc
#endif

/// The stored playlists: one `NAME.m3u` file per playlist in one folder (by default
/// `$XDG_DATA_HOME/tonearm/playlists`), read and written whole on every command. A write goes
/// to a temporary file in the same folder that is then renamed over the playlist, so a reader
/// (another client, an editor) sees the old list or the new one, never half of one. Failures
/// are MPD's ACKs: a missing playlist is "No such playlist", a file that cannot be read or
/// written a system error.
package struct MPDPlaylistStore: Sendable {
    package let directory: URL

    package init(directory: URL) { self.directory = directory }

    /// The folder `tonearm serve` keeps its playlists in unless told another.
    package static func standardDirectory(_ directories: XDGDirectories = XDGDirectories()) -> URL {
        directories.data.appendingPathComponent("playlists", isDirectory: true)
    }

    package struct Listing: Sendable, Hashable {
        package var name: String
        package var modified: Date
    }

    /// Every playlist and when it last changed, by name.
    package func list() throws(MPDAck) -> [Listing] {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory.path) } catch {
            // No folder yet: no playlist has been saved.
            if !FileManager.default.fileExists(atPath: directory.path) { return [] }
            throw MPDAck(.system, "The playlist folder cannot be read")
        }
        return names.filter { $0.hasSuffix(".m3u") && !$0.hasPrefix(".") }.sorted().compactMap { file in
            let name = String(file.dropLast(4))
            guard (try? MPDPlaylistName.validate(name)) != nil,
                let attributes = try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(file).path),
                attributes[.type] as? FileAttributeType == .typeRegular, let modified = attributes[.modificationDate] as? Date
            else { return nil }
            return Listing(name: name, modified: modified)
        }
    }

    package func exists(_ name: String) throws(MPDAck) -> Bool {
        try MPDPlaylistName.validate(name)
        return FileManager.default.fileExists(atPath: url(name).path)
    }

    /// The playlist's songs.
    package func songs(_ name: String) throws(MPDAck) -> [String] {
        try MPDPlaylistName.validate(name)
        let data: Data
        do { data = try Data(contentsOf: url(name)) } catch {
            guard FileManager.default.fileExists(atPath: url(name).path) else { throw MPDAck(.noExist, "No such playlist") }
            throw MPDAck(.system, "The playlist cannot be read")
        }
        return Array(MPDPlaylistFile.songs(in: String(decoding: data, as: UTF8.self)).prefix(MPDPlaylistEdit.maximumLength))
    }

    /// Writes the playlist whole, replacing it when it exists.
    package func write(_ name: String, _ songs: [String]) throws(MPDAck) {
        try MPDPlaylistName.validate(name)
        guard songs.count <= MPDPlaylistEdit.maximumLength else { throw MPDAck(.playlistMax, "Stored playlist is too large") }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw MPDAck(.system, "The playlist folder cannot be made")
        }
        let temporary = directory.appendingPathComponent(".\(UUID().uuidString).tmp")
        do {
            try Data(MPDPlaylistFile.text(songs).utf8).write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw MPDAck(.system, "The playlist cannot be written")
        }
        guard Glibc.rename(temporary.path, url(name).path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw MPDAck(.system, "The playlist cannot be written")
        }
    }

    /// Reads, changes and writes back an existing playlist.
    package func edit(_ name: String, _ change: ([String]) throws(MPDAck) -> [String]) throws(MPDAck) {
        try write(name, try change(try songs(name)))
    }

    package func remove(_ name: String) throws(MPDAck) {
        guard try exists(name) else { throw MPDAck(.noExist, "No such playlist") }
        do { try FileManager.default.removeItem(at: url(name)) } catch { throw MPDAck(.system, "The playlist cannot be removed") }
    }

    /// Renames a playlist; the new name must be free.
    package func rename(_ from: String, to: String) throws(MPDAck) {
        guard try exists(from) else { throw MPDAck(.noExist, "No such playlist") }
        guard try !exists(to) else { throw MPDAck(.exist, "Playlist exists already") }
        guard Glibc.rename(url(from).path, url(to).path) == 0 else { throw MPDAck(.system, "The playlist cannot be renamed") }
    }

    private func url(_ name: String) -> URL { directory.appendingPathComponent(name + ".m3u", isDirectory: false) }
}
