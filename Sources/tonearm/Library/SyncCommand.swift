import ArgumentParser
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
            abstract: "Check the account on the server, register this library as a device and keep the account.")
        @Argument(help: "The server's address (https; plain http only on this machine).") var url: String
        @Argument(help: "The account's user name.") var user: String
        @Option(help: "This library's device id on the server (default: tonearm- and eight random hex digits).") var device: String?
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            await SyncCommands.setUp(server: url, username: user, device: device, library: library)
        }
    }

    struct Now: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "now", abstract: "Sync now: take other devices' changes, send this library's.")
        @Flag(help: "Print what the run did as JSON for scripts.") var json = false
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            await SyncCommands.now(library: library, json: json)
        }
    }

    struct Status: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Show the account, the last sync and what waits to be sent.")
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
