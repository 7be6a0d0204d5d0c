import ArgumentParser
import Foundation
import LibraryKit
import PlayerCore
import PlayerKit
import TerminalApp

/// `tonearm queue ...`: the "up next" queue kept in the library: list (the default), add,
/// remove, move, clear, play.
struct QueueCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue", abstract: "The up-next queue of episodes, stations and sessions: list, add, remove, move, clear, play.",
        subcommands: [List.self, Add.self, Remove.self, Move.self, Clear.self, PlayQueue.self], defaultSubcommand: List.self)

    struct List: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the queue, first entry first.")
        @Flag(help: "Print a JSON array for scripts.") var json = false
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            await QueueCommands.list(json: json, library: library)
        }
    }

    struct Add: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add an episode, a station or a session to the queue (at the end, or --at N).")
        @Option(help: "An episode's id (see `tonearm podcast episodes`).") var episode: Int64?
        @Option(help: "A station's name or id.") var station: String?
        @Option(help: "A session's name or id.") var session: String?
        @Option(help: "Where to put it: 1 is the front.") var at: Int?
        @OptionGroup var logging: LoggingOptions

        func validate() throws {
            guard [episode != nil, station != nil, session != nil].filter({ $0 }).count == 1 else {
                throw ValidationError("give one of --episode, --station, --session")
            }
            if let at, at < 1 { throw ValidationError("--at must be at least 1") }
        }

        func run(on library: LibraryContext) async throws {
            await QueueCommands.add(episode: episode, station: station, session: session, position: at, library: library)
        }
    }

    struct Remove: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove an entry from the queue (what it names stays in the library).")
        @Argument(help: "The entry's id (the ENTRY column of `tonearm queue`).") var entry: Int64
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            await QueueCommands.remove(entryID: entry, library: library)
        }
    }

    struct Move: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "move", abstract: "Move an entry of the queue to another place (1 is the front).")
        @Argument(help: "The entry's id.") var entry: Int64
        @Argument(help: "Its new place, 1 for the front.") var position: Int
        @OptionGroup var logging: LoggingOptions

        func validate() throws {
            if position < 1 { throw ValidationError("the place must be at least 1") }
        }

        func run(on library: LibraryContext) async throws {
            await QueueCommands.move(entryID: entry, to: position, library: library)
        }
    }

    struct Clear: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "clear", abstract: "Empty the queue.")
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            await QueueCommands.clear(library: library)
        }
    }

    struct PlayQueue: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "play",
            abstract: "Play the queue in order with the crossfade setting; an episode that ends is marked played and leaves it.")
        @OptionGroup var playback: PlaybackOptions
        @OptionGroup var stream: StreamOptions
        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            logging.start()
            let stream = self.stream
            await CommandPlayback.playQueue(
                settings: playback.settings, services: { stream.services(for: $0) }, configuration: playback.configuration())
        }
    }
}
