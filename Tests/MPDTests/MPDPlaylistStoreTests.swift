import Foundation
import MPD
import MPDProtocol
import PlayerCore
import Testing

/// Stored playlists as files: M3U read and written as mpd does, names refused as mpd refuses
/// them, edits as pure functions with mpd's ACKs, writes that replace the file whole.
@Suite("MPD stored playlists")
struct MPDPlaylistStoreTests {
    static func store() -> MPDPlaylistStore {
        MPDPlaylistStore(directory: FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-playlists-\(UUID().uuidString)/playlists"))
    }

    @Test func readsM3UAsMPDDoes() {
        #expect(MPDPlaylistFile.songs(in: "#EXTM3U\n#EXTINF:12,Title\nMusic/A/01.flac\r\n\n  http://x/y.mp3  \nStations/Radio\n") == [
            "Music/A/01.flac", "http://x/y.mp3", "Stations/Radio",
        ])
        #expect(MPDPlaylistFile.songs(in: "") == [])
        #expect(MPDPlaylistFile.text(["a", "b é"]) == "a\nb é\n")
        #expect(MPDPlaylistFile.songs(in: MPDPlaylistFile.text(["a", "b é"])) == ["a", "b é"])
    }

    @Test(arguments: ["", "a/b", "a\nb", "a\rb", String(repeating: "x", count: 251)])
    func refusesBadNames(_ name: String) {
        #expect(throws: MPDAck(.argument, "Bad playlist name")) { try MPDPlaylistName.validate(name) }
    }

    @Test(arguments: ["mix", "Caf\u{e9} à deux", ".hidden", "a b", String(repeating: "x", count: 250)])
    func acceptsOtherNames(_ name: String) {
        #expect(throws: Never.self) { try MPDPlaylistName.validate(name) }
    }

    @Test func editsAsMPDEdits() throws {
        let songs = ["a", "b", "c"]
        #expect(try MPDPlaylistEdit.insert(["x"], into: songs, at: nil) == ["a", "b", "c", "x"])
        #expect(try MPDPlaylistEdit.insert(["x", "y"], into: songs, at: 0) == ["x", "y", "a", "b", "c"])
        #expect(try MPDPlaylistEdit.insert(["x"], into: songs, at: 3) == ["a", "b", "c", "x"])
        #expect(throws: MPDAck(.argument, "Bad position")) { try MPDPlaylistEdit.insert(["x"], into: songs, at: 4) }
        #expect(try MPDPlaylistEdit.delete(1..<2, from: songs) == ["a", "c"])
        #expect(try MPDPlaylistEdit.delete(1..<9, from: songs) == ["a"], "a range past the end ends at the end")
        #expect(throws: MPDAck(.argument, "Bad song index")) { try MPDPlaylistEdit.delete(3..<4, from: songs) }
        #expect(try MPDPlaylistEdit.move(from: 0, to: 2, in: songs) == ["b", "c", "a"])
        #expect(try MPDPlaylistEdit.move(from: 2, to: 0, in: songs) == ["c", "a", "b"])
        #expect(throws: MPDAck(.argument, "Bad range")) { try MPDPlaylistEdit.move(from: 0, to: 3, in: songs) }
        #expect(MPDPlaylistEdit.slice(songs, 1..<9) == ["b", "c"])
        #expect(MPDPlaylistEdit.slice(songs, 5..<9) == [])
        #expect(MPDPlaylistEdit.slice(songs, nil) == songs)
        let full = Array(repeating: "s", count: MPDPlaylistEdit.maximumLength)
        #expect(throws: MPDAck(.playlistMax, "Stored playlist is too large")) { try MPDPlaylistEdit.insert(["x"], into: full, at: nil) }
    }

    @Test func writesListsRenamesAndRemoves() throws {
        let store = Self.store()
        defer { try? FileManager.default.removeItem(at: store.directory.deletingLastPathComponent()) }
        #expect(try store.list() == [], "no folder yet is no playlist")
        #expect(throws: MPDAck(.noExist, "No such playlist")) { try store.songs("mix") }
        try store.write("mix", ["Music/A/01.flac", "http://radio/x"])
        #expect(try store.songs("mix") == ["Music/A/01.flac", "http://radio/x"])
        #expect(try String(contentsOf: store.directory.appendingPathComponent("mix.m3u"), encoding: .utf8) == "Music/A/01.flac\nhttp://radio/x\n")
        try store.write("mix", ["b"])
        #expect(try store.songs("mix") == ["b"], "a write replaces the list whole")
        try store.edit("mix") { (songs: [String]) throws(MPDAck) in songs + ["c"] }
        #expect(try store.songs("mix") == ["b", "c"])
        try store.write("another", [])
        #expect(try store.list().map(\.name) == ["another", "mix"])
        #expect(try store.list().allSatisfy { abs($0.modified.timeIntervalSinceNow) < 600 })
        // Only playlists are listed: no temporary file is left, other files are not playlists.
        try Data("x".utf8).write(to: store.directory.appendingPathComponent("notes.txt"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory.path).sorted() == ["another.m3u", "mix.m3u", "notes.txt"])
        #expect(try store.list().map(\.name) == ["another", "mix"])
        #expect(throws: MPDAck(.exist, "Playlist exists already")) { try store.rename("mix", to: "another") }
        #expect(throws: MPDAck(.noExist, "No such playlist")) { try store.rename("gone", to: "new") }
        try store.rename("mix", to: "renamed")
        #expect(try store.songs("renamed") == ["b", "c"])
        #expect(throws: MPDAck(.noExist, "No such playlist")) { try store.songs("mix") }
        try store.remove("renamed")
        #expect(throws: MPDAck(.noExist, "No such playlist")) { try store.remove("renamed") }
        #expect(try store.list().map(\.name) == ["another"])
    }

    @Test func refusesAFolderThatCannotHoldPlaylists() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-playlists-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        // A file where the folder should be: nothing can be written, and the client is told.
        let blocked = root.appendingPathComponent("playlists")
        try Data().write(to: blocked)
        let store = MPDPlaylistStore(directory: blocked)
        #expect(throws: MPDAck(.system, "The playlist folder cannot be made")) { try store.write("mix", ["a"]) }
        #expect(throws: MPDAck.self) { try store.list() }
    }

    @Test func theStandardFolderIsInTheDataHome() {
        let directories = XDGDirectories(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/x"])
        #expect(MPDPlaylistStore.standardDirectory(directories).path == "/data/tonearm/playlists")
    }
}
