import ArgumentParser
import LibraryKit
import PlayerKit
import TerminalApp

/// A subcommand that works on the library: its logging is started and the library opened (or the
/// command ends with the library's typed error) before `run(on:)`.
protocol LibrarySubcommand: AsyncParsableCommand {
    var logging: LoggingOptions { get }
    func run(on library: LibraryContext) async throws
}

extension LibrarySubcommand {
    func run() async throws {
        logging.start()
        try await run(on: await LibraryContext.openForCommand())
    }
}
