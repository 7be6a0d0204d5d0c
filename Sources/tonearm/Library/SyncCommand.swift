import ArgumentParser
import LibraryKit
import PlayerKit
import TerminalApp

/// `tonearm sync setup|now|status|forget`: podcast subscriptions and positions shared with other
/// devices through a gpodder.net-compatible server (gpodder.net, oPodSync).
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Share podcast subscriptions and positions with other devices through a gpodder.net-compatible server.",
        discussion: """
            The password comes from the TONEARM_SYNC_PASSWORD environment variable or from password = "..." under \
            [sync] in ~/.config/tonearm/config.toml (readable by you only), never from the command line.
            """,
        subcommands: [Setup.self, Now.self, Status.self, Forget.self])

    struct Setup: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "setup", 
            abstract: "Check the account, link this library with the account's devices (or join one) and sync everything once.")
        @Argument(help: "The server's address (https; plain http only on this machine).") var url: String
        @Argument(help: "The account's user name.") var user: String
        @Option(help: "This library's device id on the server (default: tonearm- and eight random hex digits).") var device: String?
        @Option(
            help: ArgumentHelp(
                "Share subscriptions with the account's devices: all, none, or device ids separated by commas.",
                discussion: "Without --link or --join Tonearm asks on a terminal; otherwise it links with all of them."))
        var link: String?
        @Option(help: "Become this existing device of the account (its id), with its subscriptions.") var join: String?
        @OptionGroup var logging: LoggingOptions

        func validate() throws {
            if link != nil && join != nil { throw ValidationError("--link and --join exclude each other") }
        }

        func run(on library: LibraryContext) async throws {
            let linking: PodcastSync.Linking? =
                if let join { .join(join) } else {
                    switch link {
                    case nil: nil
                    case let word? where word.lowercased() == "all": .all
                    case let word? where word.lowercased() == "none": PodcastSync.Linking.none
                    case let ids?: .only(ids.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                    }
                }
            await SyncCommands.setUp(server: url, username: user, device: device, linking: linking, library: library)
        }
    }

    struct Now: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "now", abstract: "Sync now: take other devices' changes, send this library's.")
        @Flag(help: "Ask for every subscription and action since the beginning (nothing here goes back).") var full = false
        @Flag(help: "Print what the run did as JSON for scripts.") var json = false
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            await SyncCommands.now(library: library, full: full, json: json)
        }
    }

    struct Status: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Show the account, the linked devices, the last sync and what waits.")
        @Flag(help: "Print JSON for scripts.") var json = false
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            SyncCommands.status(library: library, json: json)
        }
    }

    struct Forget: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "forget", abstract: "Stop syncing this library (the server keeps what it has).")
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            SyncCommands.forget(library: library)
        }
    }
}
