import Foundation
import TestProcesses
import Testing

/// Stored playlists against a real mpd 0.23 and `tonearm serve` on the same music: the same
/// session, command by command, answers the same (the same songs, in the same order, the same
/// ACKs), and mpc's playlist verbs work against Tonearm.
@Suite("tonearm serve's stored playlists", .serialized, .blocking)
struct MPDStoredPlaylistTests {
    /// The session; `%` is the album's path on the server under test.
    static let session = [
        "add \"%\"", "save mix", "save mix", "save \"a/b\"", "save \"\"", "listplaylists", "listplaylist mix", "listplaylistinfo mix",
        "playlistadd mix \"%/first.flac\"", "playlistadd mix \"%/missing.flac\"", "playlistadd mix \"%/second.flac\" 0",
        "playlistadd mix \"%/third.flac\" 9", "listplaylist mix", "playlistdelete mix 1", "playlistdelete mix 9", "playlistdelete mix 2:1",
        "playlistdelete mix x", "playlistdelete mix 3:9", "listplaylist mix", "playlistmove mix 0 2", "playlistmove mix 0 9",
        "listplaylist mix", "clear", "load mix 1:3", "playlist", "load mix 0:1 0", "load mix 0:1 99", "load mix 7:9", "playlist",
        "load missing", "listplaylist missing", "listplaylist \"a/b\"", "load \"a/b\"", "listplaylistinfo \"\"", "playlistclear \"a/b\"",
        "save other", "rename mix other", "rename mix \"a/b\"", "rename missing x",
        "rename mix renamed", "listplaylists", "playlistclear renamed", "listplaylist renamed", "playlistclear missing",
        "playlistadd fresh \"%/third.flac\"", "listplaylist fresh", "rm renamed", "rm renamed", "rm other", "rm fresh", "listplaylists",
    ]

    /// ACK messages that differ on purpose: the library's words for a path it does not hold.
    static let ownMessages: Set<String> = ["playlistadd mix \"%/missing.flac\""]

    /// One answer as compared: its lines with the album's path made mpd's; the modification
    /// times (when each server wrote its file) and what only a song database knows left out.
    static func record(_ client: MPDLineClient, prefix: String) throws -> [[String]] {
        try session.map { command in
            let answer = try client.command(command.replacingOccurrences(of: "%", with: prefix))
            var lines: [String] = answer.fields.compactMap { field in
                if field.key == "Last-Modified" || (command.hasPrefix("listplaylistinfo") && field.key != "file") { return nil }
                return "\(field.key): \(field.value.replacingOccurrences(of: prefix, with: "Album"))"
            }
            if command.hasPrefix("listplaylists") { lines.sort() }
            if let ack = answer.ack {
                lines.append(ownMessages.contains(command) ? String(ack.prefix { $0 != "}" }) : ack)
            }
            return lines
        }
    }

    @Test func theSameSessionAnswersAsMPDAnswers() throws {
        let tones = try MPDClientTests.music()
        defer { try? FileManager.default.removeItem(at: tones) }
        let mpd = try MPDDaemonProcess { music in
            try FileManager.default.copyItem(at: tones.appendingPathComponent("Album"), to: URL(fileURLWithPath: music).appendingPathComponent("Album"))
        }
        defer { mpd.stop() }
        let real = try MPDLineClient("127.0.0.1:\(mpd.port)")
        _ = try mpd.updatedClient()
        try #require((try real.command("listall").fields.filter { $0.key == "file" }.count) == 3)
        let daemon = try ServeDaemon(music: URL(fileURLWithPath: mpd.musicDirectory))

        let theirs = try Self.record(real, prefix: "Album")
        let ours = try Self.record(try daemon.client(), prefix: "Music/Album")
        #expect(theirs.count == Self.session.count)
        for (command, (mine, real)) in zip(Self.session, zip(ours, theirs)) {
            #expect(mine == real, "\(command):\n mpd     \(real)\n tonearm \(mine)")
        }
        // The session ends with every playlist removed, the folder left with no file behind.
        let folder = daemon.home.appendingPathComponent("data/tonearm/playlists")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    /// `save`'s mode, as MPD 0.24 defines it (0.23 has only `create`, so no mpd here answers it):
    /// `create` refuses a name in use, `append` adds the queue to the list's end, `replace`
    /// writes it over; both need the list to exist, and an unknown mode is an argument error.
    @Test func saveAppendsAndReplacesByItsMode() throws {
        let music = try MPDClientTests.music()
        defer { try? FileManager.default.removeItem(at: music) }
        let daemon = try ServeDaemon(music: music)
        let client = try daemon.client()
        func songs() throws -> [String] {
            try client.command("listplaylist mix").fields.filter { $0.key == "file" }.map { ($0.value as NSString).lastPathComponent }
        }
        #expect(try client.command("add \"Music/Album/first.flac\"").ack == nil)
        #expect(try client.command("save mix append").ack?.hasPrefix("ACK [50@0] {save} No such playlist") == true)
        #expect(try client.command("save mix replace").ack?.hasPrefix("ACK [50@0] {save} No such playlist") == true)
        #expect(try client.command("save mix create").ack == nil)
        #expect(try client.command("save mix").ack?.hasPrefix("ACK [56@0] {save} Playlist already exists") == true)
        #expect(try client.command("save mix create").ack?.hasPrefix("ACK [56@0]") == true)
        #expect(try client.command("add \"Music/Album/second.flac\"").ack == nil)
        #expect(try client.command("save mix append").ack == nil)
        #expect(try songs() == ["first.flac", "first.flac", "second.flac"])
        #expect(try client.command("save mix replace").ack == nil)
        #expect(try songs() == ["first.flac", "second.flac"])
        #expect(try client.command("save mix Replace").ack?.hasPrefix("ACK [2@0] {save} Unrecognized save mode") == true)
        #expect(try client.command("save \"a/b\" append").ack?.hasPrefix("ACK [2@0] {save} Bad playlist name") == true)
        #expect(try songs() == ["first.flac", "second.flac"], "a refused save leaves the list as it was")
    }

    @Test func mpcSavesListsLoadsAndRemoves() throws {
        let music = try MPDClientTests.music()
        defer { try? FileManager.default.removeItem(at: music) }
        let daemon = try ServeDaemon(music: music)
        let idler = try daemon.client()
        try idler.send("idle stored_playlist")

        #expect(try daemon.mpc("add", "Music/Album").status == 0)
        let save = try daemon.mpc("save", "road trip")
        #expect(save.status == 0, "\(save.out)")
        #expect(try idler.answer().fields.map(\.value) == ["stored_playlist"], "idle wakes on a saved playlist")
        #expect(try daemon.client().command("listplaylists").fields.filter { $0.key == "playlist" }.map(\.value) == ["road trip"])
        // `mpc lsplaylists` reads the root's `lsinfo`, which lists them too, as mpd's does.
        #expect(try daemon.mpc("lsplaylists").out.split(separator: "\n") == ["road trip"])
        #expect(try daemon.mpc("playlist", "road trip").out.split(separator: "\n") == ["first", "second", "third"])
        let again = try daemon.mpc("save", "road trip")
        #expect(again.status != 0 && again.out.contains("Playlist already exists"), "\(again.out)")
        let file = daemon.home.appendingPathComponent("data/tonearm/playlists/road trip.m3u")
        #expect(try String(contentsOf: file, encoding: .utf8) == "Music/Album/first.flac\nMusic/Album/second.flac\nMusic/Album/third.flac\n")

        #expect(try daemon.mpc("clear").status == 0)
        #expect(try daemon.mpc("load", "road trip").status == 0)
        #expect(try daemon.mpc("playlist").out.split(separator: "\n") == ["first", "second", "third"])
        // A song that no longer resolves is left out when loading, as mpd leaves it out.
        try "Music/Album/gone.flac\nMusic/Album/third.flac\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(try daemon.mpc("clear").status == 0)
        #expect(try daemon.mpc("load", "road trip").status == 0)
        #expect(try daemon.mpc("playlist").out.split(separator: "\n") == ["third"])

        #expect(try daemon.mpc("rm", "road trip").status == 0)
        #expect(try daemon.client().command("listplaylists").fields.isEmpty)
        let missing = try daemon.mpc("load", "road trip")
        #expect(missing.status != 0 && missing.out.contains("No such playlist"), "\(missing.out)")
    }

    @Test func playlistsAreKeptInTheFolderTheListenerNames() throws {
        let music = try MPDClientTests.music()
        defer { try? FileManager.default.removeItem(at: music) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-playlists-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let daemon = try ServeDaemon(["--playlist-directory", folder.path], music: music)
        let client = try daemon.client()
        #expect(try client.command("playlistadd mix \"Music/Album/second.flac\"").ack == nil)
        #expect(try String(contentsOf: folder.appendingPathComponent("mix.m3u"), encoding: .utf8) == "Music/Album/second.flac\n")
        #expect(!FileManager.default.fileExists(atPath: daemon.home.appendingPathComponent("data/tonearm/playlists").path))
    }
}
