import ArgumentParser
import Daemon
import Foundation
import LibraryKit
import Logging
import TerminalApp

/// `tonearm music ...`: the index of the music directory, and what it holds.
struct MusicCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "music", abstract: "The music directory: update its index, list artists, albums and songs, search, play an album or an artist.",
        subcommands: [Update.self, Artists.self, Albums.self, Songs.self, Search.self, Play.self, Failures.self])

    struct Update: LibrarySubcommand {
        static let configuration = CommandConfiguration(
            commandName: "update", abstract: "Read the tags of new and changed files into the index; drop files that are gone.")
        @Option(help: "The music folder (default: the XDG music folder, `xdg-user-dir MUSIC`, else ~/Music).") var musicDirectory: String?
        @Flag(help: "Read every file again, changed or not.") var rescan = false
        @Flag(help: "Print a JSON summary for scripts.") var json = false
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            let directory = musicDirectory.map { URL(fileURLWithPath: NSString(string: $0).expandingTildeInPath, isDirectory: true) }
                ?? MusicDirectory.standard()
            await MusicCommands.update(directory: directory, rescan: rescan, json: json, library: library, logger: CommandLog.logger)
        }
    }

    struct Artists: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "artists", abstract: "Every artist in the index.")
        @Flag(help: "Print a JSON array for scripts.") var json = false
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws { await MusicCommands.artists(json: json, library: library) }
    }

    struct Albums: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "albums", abstract: "Albums with their year, of one artist or all.")
        @Option(help: "Only this artist's albums.") var artist: String?
        @Flag(help: "Print a JSON array for scripts.") var json = false
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws { await MusicCommands.albums(artist: artist, json: json, library: library) }
    }

    struct Songs: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "songs", abstract: "Songs of an album in play order, or every song.")
        @Option(help: "Only this album's songs.") var album: String?
        @Flag(help: "Print a JSON array for scripts.") var json = false
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws { await MusicCommands.songs(album: album, json: json, library: library) }
    }

    struct Search: LibrarySubcommand {
        static let configuration = CommandConfiguration(
            commandName: "search", abstract: "Songs whose title, artist, album, genre, composer, performer or path has every word.")
        @Argument(help: "Words (prefixes match; \"quoted words\" are a phrase).") var words: [String]
        @Flag(help: "Print a JSON array for scripts.") var json = false
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            await MusicCommands.search(words.joined(separator: " "), json: json, library: library)
        }
    }

    struct Play: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "play", abstract: "Play an album in its order, or every album of an artist, from the index.")
        @Option(help: "The album to play (with --artist: that artist's album of that name).") var album: String?
        @Option(help: "The artist whose albums play, one after another (or, with --album, whose album).") var artist: String?
        @Option(help: "The music folder the index was made of (default: the XDG music folder, `xdg-user-dir MUSIC`, else ~/Music).")
        var musicDirectory: String?
        @OptionGroup var playback: PlaybackOptions
        @OptionGroup var logging: LoggingOptions

        func validate() throws {
            guard album != nil || artist != nil else { throw ValidationError("give --album, --artist or both") }
        }

        func run() async throws {
            logging.start()
            let directory = musicDirectory.map { URL(fileURLWithPath: NSString(string: $0).expandingTildeInPath, isDirectory: true) }
                ?? MusicDirectory.standard()
            await CommandPlayback.playMusic(
                album: album, artist: artist, musicDirectory: directory, settings: playback.settings, configuration: playback.configuration())
        }
    }

    struct Failures: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "failures", abstract: "Files the last updates could not read, and why.")
        @Flag(help: "Print a JSON array for scripts.") var json = false
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws { await MusicCommands.failures(json: json, library: library) }
    }
}
