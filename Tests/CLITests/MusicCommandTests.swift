import Foundation
import PlayerCore
import Presentation
import TestProcesses
import Testing

/// `tonearm music`: the index of a folder ffmpeg fills here, updated, listed and searched from the
/// command line, with what could not be read told rather than hidden.
@Suite("tonearm music", .serialized)
struct MusicCommandTests {
    @Test func updateListSearchAndFailures() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-music-cli-\(UUID().uuidString)")
        let music = root.appendingPathComponent("music")
        let data = root.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try MPDDatabaseComparisonTests.makeMusic(in: music)
        func run(_ arguments: String...) throws -> (status: Int32, out: String, err: String) {
            try CLITests.run(["music"] + arguments, dataHome: data)
        }

        // Before an update the index is empty, and says how to fill it.
        let empty = try run("artists")
        #expect(empty.status == 0 && empty.out.isEmpty && empty.err.contains("tonearm music update"))

        let update = try run("update", "--music-directory", music.path)
        #expect(update.status == 0, "\(update.err)")
        #expect(update.out.contains("Music index updated: 6 read, 0 unchanged, 0 removed"), "\(update.out)")
        #expect(update.out.contains("1 file could not be read"))
        let again = try run("update", "--music-directory", music.path, "--json")
        let summary = try JSONSerialization.jsonObject(with: Data(again.out.utf8)) as? [String: Any]
        #expect(summary?["read"] as? Int == 0 && summary?["unchanged"] as? Int == 6, "\(again.out)")

        // Album artists, albums in artist then year order, an album's songs in track order.
        #expect(try run("artists").out.split(separator: "\n") == ["Aurora Trio", "Кино"])
        #expect(try run("albums").out.split(separator: "\n") == [
            "Aurora Trio — Night Ferry (2019), 2 songs", "Aurora Trio — Day Ferry (2021), 1 song", "Кино — Группа крови (1988), 1 song",
        ])
        let songs = try run("songs", "--album", "night ferry").out.split(separator: "\n")
        #expect(songs.count == 2 && songs[0].hasPrefix("Harbour — Aurora Trio (Night Ferry)") && songs[1].hasPrefix("Lanterns"), "\(songs)")

        // Search: prefixes, any script, accents folded; nothing found is said on stderr.
        #expect(try run("search", "крови").out.contains("Кино/Группа крови/01 Группа крови.flac"))
        #expect(try run("search", "mira", "hol").out.contains("Dawn — Aurora Trio feat. Mira"))
        let none = try run("search", "nothing-like-this")
        #expect(none.out.isEmpty && none.err.contains("no song"))
        let json = try JSONSerialization.jsonObject(with: Data(try run("search", "harbour", "--json").out.utf8)) as? [[String: Any]]
        #expect(json?.first?["path"] as? String == "Aurora Trio/Night Ferry/01 Harbour.mp3")

        // The file that is not audio, with its typed error.
        let failures = try run("failures", "--json")
        let failed = try JSONSerialization.jsonObject(with: Data(failures.out.utf8)) as? [[String: Any]]
        #expect(failed?.compactMap { $0["path"] as? String } == ["broken.mp3"], "\(failures.out)")
        #expect((failed?.first?["error"] as? String)?.isEmpty == false)

        // A folder that is not there is a typed error and a non-zero exit.
        let missing = try run("update", "--music-directory", root.appendingPathComponent("nowhere").path)
        #expect(missing.status != 0 && missing.err.lowercased().contains("not found"), "\(missing.err)")
    }

    /// `tonearm music play`: an album in its track order, an artist's albums one after another
    /// (by year), each song told by its tags; a name the index does not hold is its typed error.
    @Test func playAnAlbumOrAnArtist() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-music-play-\(UUID().uuidString)")
        let music = root.appendingPathComponent("music")
        let data = root.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try MPDDatabaseComparisonTests.makeMusic(in: music)
        #expect(try CLITests.run(["music", "update", "--music-directory", music.path], dataHome: data).status == 0)
        func played(_ arguments: String...) throws -> (status: Int32, titles: [String], albums: Set<String>, err: String) {
            let r = try PlaybackCommandTests.run(
                ["music", "play"] + arguments + ["--music-directory", music.path, "--output", "null", "--fast", "--events", "jsonl"],
                environment: ["XDG_DATA_HOME": data.path])
            let tracks = r.events.filter { $0["state"] as? String == "playing" }.compactMap { $0["track"] as? [String: Any] }
            var titles: [String] = []
            for track in tracks where titles.last != track["title"] as? String { titles.append(track["title"] as? String ?? "?") }
            return (r.status, titles, Set(tracks.compactMap { $0["album"] as? String }), r.err)
        }

        let album = try played("--album", "night ferry")
        #expect(album.status == 0, "\(album.err)")
        #expect(album.titles == ["Harbour", "Lanterns"] && album.albums == ["Night Ferry"], "\(album)")

        let artist = try played("--artist", "Aurora Trio")
        #expect(artist.status == 0, "\(artist.err)")
        #expect(artist.titles.prefix(2) == ["Harbour", "Lanterns"] && artist.titles.count == 3, "Night Ferry (2019) first: \(artist)")
        #expect(artist.albums == ["Night Ferry", "Day Ferry"], "\(artist)")

        let mismatched = try played("--album", "Night Ferry", "--artist", "Кино")
        #expect(mismatched.status == 1 && mismatched.titles.isEmpty, "\(mismatched)")
        #expect(mismatched.err.contains(PlaybackError(.notInLibrary).message(in: .english)), "\(mismatched.err)")

        let nothing = try CLITests.run(["music", "play", "--output", "null"], dataHome: data)
        #expect(nothing.status != 0 && nothing.err.contains("--album"), "\(nothing.err)")
    }
}
