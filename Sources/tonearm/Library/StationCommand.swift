import ArgumentParser
import Foundation
import Library
import LibraryKit
import PlayerCore
import PlayerKit
import TerminalApp
import Presentation
import Services
import Streaming

/// `tonearm station ...`: internet radio stations kept by name.
struct StationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "station", abstract: "Internet radio stations: search the directory, add, import, list, remove.",
        subcommands: [Search.self, Add.self, Import.self, List.self, Remove.self])

    struct Search: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "search", abstract: "Search the radio-browser station directory.")
        @Argument(help: "Words of the station's name.") var words: [String] = []
        @Option(help: "A tag (genre), such as jazz.") var tag: String?
        @Option(help: "A country: its two-letter code (DE) or its name.") var country: String?
        @Option(help: "A language, such as german.") var language: String?
        @Option(help: "votes or clicks: which stations come first.") var order: StationQuery.Order = .votes
        @Option(help: "At most this many stations (1-500).") var limit = 30
        @Option(help: "Keep result N in the library instead of listing.") var add: Int?
        @Option(help: "The directory server to ask (default: TONEARM_DIRECTORY_URL, config.toml, else discovered).")
        var directoryURL: String?
        @Flag(help: "Print a JSON array for scripts.") var json = false
        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            logging.start()
            let query = StationQuery(name: words.joined(separator: " "), tag: tag, country: country, language: language, order: order, limit: limit)
            await StationSearch.run(query, json: json, add: add, directoryURL: directoryURL)
        }
    }

    struct Add: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Keep a station under a name.")
        @Argument(help: "The station's name.") var name: String
        @Argument(help: "Its stream or playlist URL (http or https).") var url: String
        @Option(help: "Its genre.") var genre: String?
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            let streamURL = try webURL(url, what: "URL")
            await StationCommands.add(name: name, url: streamURL, genre: genre, library: library)
        }
    }

    struct Import: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "import", 
            abstract: "Add the stations of a .pls, .m3u or .m3u8 file (http(s) entries; names from the file's titles).")
        @Argument(help: "The playlist file.") var file: String
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            let data = CommandFailure.orExit { () throws(PlaybackError) in try UserFile.read(file, maxBytes: StreamingLimits.maxPlaylistBytes) }
            let result = await library.attempt("importStations") { () throws(PlaybackError) in
                try library.importStations(data, file: URL(fileURLWithPath: file))
            }
            for station in result.added { print("Added \(station.name) (station \(station.id))") }
            for (name, error) in result.failed { CommandFailure.warn(error, about: name) }
            print("\(result.added.count) of \(result.entries) entries added")
            if result.added.isEmpty && result.entries > 0 { throw ExitCode(1) }
        }
    }

    struct List: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List stations.")
        @Flag(help: "Print a JSON array (stable ids) for scripts.") var json = false
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            await StationCommands.list(json: json, library: library)
        }
    }

    struct Remove: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a station.")
        @Argument(help: "The station's name or id.") var name: String
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            await StationCommands.remove(name, library: library)
        }
    }
}
