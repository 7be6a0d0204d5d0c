import ArgumentParser
import Foundation
import LibraryKit
import PlayerCore
import PlayerKit
import TerminalApp

/// `tonearm analytics share [on|off|status]`: the listener's consent to opt-in sharing of hourly
/// error counts. Off until the listener says otherwise; asked at most once (`share` alone, on a
/// terminal, while it was never answered); what a running daemon or player sends follows it.
struct AnalyticsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analytics", abstract: "Opt-in sharing of error counts (off unless you turn it on).",
        subcommands: [Share.self])

    struct Share: LibrarySubcommand {
        static let configuration = CommandConfiguration(
            commandName: "share",
            abstract: "Turn sharing of hourly error counts on or off, or show it (alone: asks once, on a terminal).")

        @Argument(help: "on, off or status.") var answer: AnalyticsCommands.Answer?
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            AnalyticsCommands.share(answer, library: library)
        }
    }
}

extension AnalyticsCommands.Answer: ExpressibleByArgument {}
