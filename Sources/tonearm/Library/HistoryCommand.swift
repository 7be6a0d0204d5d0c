import ArgumentParser
import LibraryKit
import PlayerKit
import TerminalApp

/// `tonearm history`: the titles heard on stations, kept on this machine.
struct HistoryCommand: LibrarySubcommand {
    static let configuration = CommandConfiguration(commandName: "history", abstract: "Titles heard on stations, newest first.")
    @Option(help: "Only the titles of this station (its name).") var station: String?
    @Option(help: "At most this many titles.") var limit = 100
    @Flag(help: "Print a JSON array for scripts.") var json = false
    @OptionGroup var logging: LoggingOptions

    func run(on library: LibraryContext) async throws {
        await HistoryCommands.history(station: station, limit: limit, json: json, library: library)
    }
}

/// `tonearm favourites`: the songs liked, as a table or exported as CSV or JSON.
struct FavouritesCommand: LibrarySubcommand {
    static let configuration = CommandConfiguration(commandName: "favourites", abstract: "The songs you liked (l on Now Playing or in History).")
    @Option(help: "table, csv or json.") var format: HistoryCommands.Format = .table
    @Option(help: "Write to this file instead of stdout.") var export: String?
    @OptionGroup var logging: LoggingOptions

    func run(on library: LibraryContext) async throws {
        await HistoryCommands.favourites(format: format, file: export, library: library)
    }
}

extension HistoryCommands.Format: ExpressibleByArgument {}
