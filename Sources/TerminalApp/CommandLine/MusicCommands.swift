import Foundation
import Library
import LibraryKit
import Logging
import PlayerCore

/// What `tonearm music ...` does once its arguments are parsed: update the index of the music
/// directory with progress, and list or search what it holds.
package enum MusicCommands {
    /// Brings the index up to date, printing progress on stderr when it is a terminal and a
    /// summary on stdout. Files that could not be read are counted, never hidden.
    package static func update(directory: URL, rescan: Bool, json: Bool, library: LibraryContext, logger: Logger) async {
        let indexer = library.musicIndexer(directory: directory, logger: logger)
        let showsProgress = isatty(STDERR_FILENO) == 1 && !json
        let summary = await library.attempt("updateMusic") { () throws(PlaybackError) in
            try indexer.update(rereadAll: rescan, progress: { progress in
                guard showsProgress, progress.total > 0 else { return }
                FileHandle.standardError.write(Data("\rReading tags: \(progress.read) of \(progress.total)\u{1B}[K".utf8))
            })
        }
        if showsProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        if json { return JSONOutput.print(UpdateReport(summary)) }
        print(Self.text(of: summary))
        if summary.failures > 0 {
            print("\(summary.failures) file\(summary.failures == 1 ? "" : "s") could not be read: `tonearm music failures` lists them.")
        }
    }

    /// The one-line summary of an update.
    package static func text(of summary: MusicIndexer.Summary) -> String {
        var parts = ["\(summary.read) read", "\(summary.unchanged) unchanged", "\(summary.removed) removed"]
        if summary.unreadableFolders > 0 { parts.append("\(summary.unreadableFolders) folders unreadable") }
        if summary.undecodableNames > 0 { parts.append("\(summary.undecodableNames) names not UTF-8 skipped") }
        return "Music index updated: " + parts.joined(separator: ", ") + String(format: " (%.1f s)", summary.seconds)
    }

    /// Every artist, one per line (or a JSON array).
    package static func artists(json: Bool, library: LibraryContext) async {
        let songs = await library.attempt("listMusic") { () throws(PlaybackError) in try library.store.musicSongs() }
        let artists = MusicAlbums.artists(songs)
        if json { return JSONOutput.print(artists) }
        guard !artists.isEmpty else { return emptyIndex() }
        for artist in artists { print(TextSanitizer.singleLine(artist, maxLength: 200)) }
    }

    /// Albums (of one artist), with year and song count.
    package static func albums(artist: String?, json: Bool, library: LibraryContext) async {
        let songs = await library.attempt("listMusic") { () throws(PlaybackError) in try library.store.musicSongs() }
        let albums = MusicAlbums.albums(songs, artist: artist)
        if json { return JSONOutput.print(albums.map { AlbumLine(title: $0.title, artist: $0.artist, year: $0.year, songs: $0.songs.count) }) }
        guard !albums.isEmpty else { return emptyIndex() }
        for album in albums {
            let year = album.year.map { " (\($0))" } ?? ""
            print("\(clean(album.artist)) — \(clean(album.title))\(year), \(album.songs.count) song\(album.songs.count == 1 ? "" : "s")")
        }
    }

    /// Songs of one album (in play order), or every song.
    package static func songs(album: String?, json: Bool, library: LibraryContext) async {
        let all = await library.attempt("listMusic") { () throws(PlaybackError) in try library.store.musicSongs() }
        let songs = album.map { title in
            MusicAlbums.albums(all).filter { $0.title.caseInsensitiveCompare(title) == .orderedSame }.flatMap(\.songs)
        } ?? all.filter { $0.failure == nil }
        printSongs(songs, json: json)
    }

    /// Songs whose title, artist, album, genre, composer, performer or path has every word.
    package static func search(_ words: String, json: Bool, library: LibraryContext) async {
        let songs = await library.attempt("searchMusic") { () throws(PlaybackError) in try library.store.searchMusic(words) }
        guard !songs.isEmpty || json else {
            return FileHandle.standardError.write(Data("tonearm: no song in the music index matches\n".utf8))
        }
        printSongs(songs, json: json)
    }

    /// The files an update could not read, with what went wrong.
    package static func failures(json: Bool, library: LibraryContext) async {
        let songs = await library.attempt("listMusic") { () throws(PlaybackError) in try library.store.musicSongs() }.filter { $0.failure != nil }
        if json { return JSONOutput.print(songs.map { FailureLine(path: $0.path, error: $0.failure.map { "\($0.category.rawValue).\($0.typeName)" } ?? "") }) }
        for song in songs {
            let text = PlaybackError(song.failure ?? .unknown).text(in: .current)
            print("\(clean(song.path)): \(text.title)")
        }
    }

    private static func printSongs(_ songs: [MusicSongRecord], json: Bool) {
        if json { return JSONOutput.print(songs) }
        for song in songs {
            let artist = song.tags[.artist].map { " — \(clean($0))" } ?? ""
            let album = song.tags[.album].map { " (\(clean($0)))" } ?? ""
            print("\(clean(song.displayTitle))\(artist)\(album)  [\(clean(song.path))]")
        }
    }

    private static func emptyIndex() {
        FileHandle.standardError.write(Data("tonearm: the music index is empty; run `tonearm music update` first\n".utf8))
    }

    private static func clean(_ text: String) -> String { TextSanitizer.singleLine(text, maxLength: 200) }

    private struct AlbumLine: Encodable {
        var title: String
        var artist: String
        var year: Int?
        var songs: Int
    }

    private struct FailureLine: Encodable {
        var path: String
        var error: String
    }

    private struct UpdateReport: Encodable {
        var read, unchanged, removed, failures, unreadableFolders, undecodableNames: Int
        var seconds: Double
        init(_ s: MusicIndexer.Summary) {
            (read, unchanged, removed, failures) = (s.read, s.unchanged, s.removed, s.failures)
            (unreadableFolders, undecodableNames, seconds) = (s.unreadableFolders, s.undecodableNames, (s.seconds * 10).rounded() / 10)
        }
    }
}
