import Foundation
import TestProcesses
import Testing

/// ncmpcpp, the terminal MPD client, in tmux against `tonearm serve`: its playlist screen lists
/// the queue, Enter plays the song under the cursor, `p` pauses, its browser lists the library's
/// stations, and its outputs screen lists the output; its media library browses the music database
/// by artist, album and song and queues an album, and its search engine finds a song.
@Suite("tonearm serve with ncmpcpp", .serialized, .blocking)
struct NcmpcppTests {
    @Test func playlistBrowserAndOutputsScreens() throws {
        let music = try MPDClientTests.music()
        defer { try? FileManager.default.removeItem(at: music) }
        let daemon = try ServeDaemon(music: music)
        let station = try CLITests.run(
            ["station", "add", "Kitchen Radio", "http://127.0.0.1:9/live"], dataHome: daemon.home.appendingPathComponent("data"))
        #expect(station.status == 0, "\(station.err)")
        #expect(try daemon.mpc("add", "Music/Album").status == 0)
        let client = try daemon.client()

        let terminal = try Self.ncmpcpp(on: daemon, startupScreen: "playlist")

        let listed = try terminal.waitFor(timeout: 20) { $0.contains("first") && $0.contains("second") && $0.contains("third") }
        #expect(listed.matched, "the playlist screen did not list the queue:\n\(listed.screen)")

        // Down once, Enter: the second song plays.
        try terminal.send("Down")
        try terminal.send("Enter")
        #expect(eventuallyBlocking(timeout: 15) { (try? client.status()["song"]) == "1" && (try? client.status()["state"]) == "play" })
        let playing = try terminal.waitFor(timeout: 15) { $0.contains("Playing") }
        #expect(playing.matched, "ncmpcpp did not show playing:\n\(playing.screen)")

        try terminal.send("p")
        #expect(eventuallyBlocking(timeout: 15) { (try? client.status()["state"]) == "pause" })
        let paused = try terminal.waitFor(timeout: 15) { $0.contains("Paused") }
        #expect(paused.matched, "ncmpcpp did not show the pause:\n\(paused.screen)")

        // The browser: the library's roots, and the stations inside Stations.
        try terminal.send("2")
        let roots = try terminal.waitFor(timeout: 15) { $0.contains("Stations") && $0.contains("Podcasts") && $0.contains("Music") }
        #expect(roots.matched, "the browser did not list the library:\n\(roots.screen)")
        try terminal.send("Enter")
        let stations = try terminal.waitFor(timeout: 15) { $0.contains("Kitchen Radio") }
        #expect(stations.matched, "the browser did not list the stations:\n\(stations.screen)")

        try terminal.send("7")
        let outputs = try terminal.waitFor(timeout: 15) { $0.contains("null output") }
        #expect(outputs.matched, "the outputs screen did not list the output:\n\(outputs.screen)")
    }

    @Test func mediaLibraryAndSearchEngine() throws {
        let music = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-ncmpcpp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: music) }
        try MPDDatabaseComparisonTests.makeMusic(in: music)
        let daemon = try ServeDaemon(music: music)
        let client = try daemon.client()
        try #require((try client.command("list Title").fields.count) == 5, "\(daemon.logTail)")

        let terminal = try Self.ncmpcpp(on: daemon, startupScreen: "media_library")

        // Artists (a song without one is ncmpcpp's "<empty>", first), then Aurora Trio's album
        // with its year, then its songs with their track numbers.
        let artists = try terminal.waitFor(timeout: 20) { $0.contains("Aurora Trio feat. Mira") && $0.contains("Кино") }
        #expect(artists.matched, "the media library listed no artists:\n\(artists.screen)")
        try terminal.send("Down")
        let albums = try terminal.waitFor(timeout: 15) { $0.contains("(2019) Night Ferry") && !$0.contains("Day Ferry") }
        #expect(albums.matched, "the media library listed no albums:\n\(albums.screen)")
        try terminal.send("Right")
        let songs = try terminal.waitFor(timeout: 15) { $0.contains("01 - Harbour") && $0.contains("02 - Lanterns") }
        #expect(songs.matched, "the media library listed no songs:\n\(songs.screen)")
        // Enter on an album: its songs are queued and play.
        try terminal.send("Left")
        try terminal.send("Enter")
        #expect(eventuallyBlocking(timeout: 15) {
            (try? client.command("playlistinfo").fields.filter { $0.key == "Title" }.map(\.value)) == ["Harbour", "Lanterns"]
        })
        #expect(eventuallyBlocking(timeout: 15) { (try? client.status()["state"]) == "play" })

        // The search engine: "Any" holds a Cyrillic word, "Search" finds the song.
        try terminal.send("3")
        _ = try terminal.waitFor(timeout: 15) { $0.contains("Search engine") }
        try terminal.send("Enter")
        try terminal.sendText("крови")
        try terminal.send("Enter")
        for _ in 0..<13 { try terminal.send("Down") }
        try terminal.send("Enter")
        let found = try terminal.waitFor(timeout: 15) { $0.contains("Found 1 song") && $0.contains("Кино - Группа крови") }
        #expect(found.matched, "the search engine did not find the song:\n\(found.screen)")
    }

    /// The playlist editor as a listener uses it: `S` saves the queue under a name, the editor
    /// lists it with its songs, Delete on a song takes it out of the stored playlist, Enter on the
    /// playlist queues and plays it; and Enter on the outputs screen turns the output off and on again.
    @Test func playlistEditorSavesLoadsEditsAndOutputsToggle() throws {
        let music = try MPDClientTests.music()
        defer { try? FileManager.default.removeItem(at: music) }
        let daemon = try ServeDaemon(music: music)
        #expect(try daemon.mpc("add", "Music/Album").status == 0)
        let client = try daemon.client()

        let terminal = try Self.ncmpcpp(on: daemon, startupScreen: "playlist")
        let listed = try terminal.waitFor(timeout: 20) { $0.contains("first") && $0.contains("third") }
        #expect(listed.matched, "the playlist screen did not list the queue:\n\(listed.screen)")

        try terminal.send("S")
        _ = try terminal.waitFor(timeout: 15) { $0.contains("Save playlist as:") }
        try terminal.sendText("Вечер Mix")
        try terminal.send("Enter")
        let saved = try terminal.waitFor(timeout: 15) { $0.contains("Playlist saved as") }
        #expect(saved.matched, "ncmpcpp did not save:\n\(saved.screen)")
        #expect(try client.command("listplaylist \"Вечер Mix\"").fields.map(\.value) == ["Music/Album/first.flac", "Music/Album/second.flac", "Music/Album/third.flac"])

        // The editor lists the playlist and its songs.
        #expect(try client.command("clear").ack == nil)
        try terminal.send("5")
        let editor = try terminal.waitFor(timeout: 15) {
            $0.contains("Playlist editor") && $0.contains("Вечер Mix") && $0.contains("Content (3 items)") && $0.contains("second")
        }
        #expect(editor.matched, "the playlist editor did not list the playlist:\n\(editor.screen)")
        // The second song of the stored playlist deleted from the editor's right column (done
        // before playing: ncmpcpp refetches the column when the queue changes, and a key that
        // arrives meanwhile finds it empty).
        try terminal.send("Right")
        try terminal.send("Down")
        try terminal.send("Delete")
        #expect(eventuallyBlocking(timeout: 15) {
            (try? client.command("listplaylist \"Вечер Mix\"").fields.map(\.value)) == ["Music/Album/first.flac", "Music/Album/third.flac"]
        }, "\((try? terminal.capture()) ?? "")")
        // Enter on the playlist, with the queue emptied, loads what is left of it and plays.
        let edited = try terminal.waitFor(timeout: 15) { $0.contains("Content (2 items)") }
        #expect(edited.matched, "the editor did not show the playlist edited:\n\(edited.screen)")
        try terminal.send("Left")
        try terminal.send("Enter")
        #expect(eventuallyBlocking(timeout: 15) {
            (try? client.command("playlistinfo").fields.filter { $0.key == "file" }.map(\.value)) == ["Music/Album/first.flac", "Music/Album/third.flac"]
        }, "\(daemon.logTail)")
        #expect(eventuallyBlocking(timeout: 15) { (try? client.status()["state"]) == "play" })

        // The outputs screen: Enter turns the output off, Enter again on.
        try terminal.send("7")
        _ = try terminal.waitFor(timeout: 15) { $0.contains("null output") }
        try terminal.send("Enter")
        #expect(eventuallyBlocking(timeout: 15) { (try? client.command("outputs").fields.first { $0.key == "outputenabled" }?.value) == "0" })
        let off = try terminal.waitFor(timeout: 15) { $0.contains("Output \"null output\" disabled") }
        #expect(off.matched, "ncmpcpp did not tell the output off:\n\(off.screen)")
        try terminal.send("Enter")
        #expect(eventuallyBlocking(timeout: 15) { (try? client.command("outputs").fields.first { $0.key == "outputenabled" }?.value) == "1" })
        #expect(try client.status()["state"] == "play", "playback went on while the output was off")
    }

    /// ncmpcpp under tmux (120x30, UTF-8), connected to `daemon`'s socket, opening on `startupScreen`.
    static func ncmpcpp(on daemon: ServeDaemon, startupScreen: String) throws -> TmuxSession {
        let config = daemon.home.appendingPathComponent("ncmpcpp")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "mpd_host = \"\(daemon.socket)\"\nstartup_screen = \(startupScreen)\n".write(
            to: config.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        return try TmuxSession(
            ["/usr/bin/ncmpcpp", "--config", config.appendingPathComponent("config").path, "--host", daemon.socket], width: 120,
            height: 30, environment: ["HOME": daemon.home.path, "TERM": "xterm-256color", "LANG": "C.UTF-8"])
    }
}
