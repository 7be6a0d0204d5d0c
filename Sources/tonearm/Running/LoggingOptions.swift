import ArgumentParser
import Foundation
import Logging
import PlayerCore
import PlayerKit
import TerminalApp

/// `--log-level` and `--log-file`, on every command that plays, touches the network or changes
/// the library: what a listener attaches to a report.
struct LoggingOptions: ParsableArguments {
    @Option(help: "How much goes to the log file: trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .warning

    @Option(help: "The log file (default: $XDG_STATE_HOME/tonearm/tonearm.log, or ~/.local/state/tonearm/tonearm.log). Capped at 5 MiB, 3 old files kept.")
    var logFile: String?

    /// Where records go for this run.
    var fileURL: URL {
        guard let logFile else { return LogFileLocation.defaultURL() }
        return URL(fileURLWithPath: NSString(string: logFile).expandingTildeInPath)
    }

    /// Starts this run's log (`CommandLog.start`). Call once, first thing in `run()`.
    func start() { CommandLog.start(level: logLevel, file: fileURL) }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
