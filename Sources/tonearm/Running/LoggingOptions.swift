import ArgumentParser
import Foundation
import Logging
import PlayerCore
import PlayerKit
import Synchronization

/// `--log-level` and `--log-file`, on every command that plays, touches the network or changes
/// the library: what a listener attaches to a report.
///
/// The executable is the one place that calls `LoggingSystem.bootstrap` (libraries only take an
/// injected `Logger`). The default level, `warning`, keeps failures only, so a normal run writes
/// nothing; `debug` replays every decision of the player and every request.
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

    /// Sends every `Logger` of the process to the log file at the chosen level, and makes it the
    /// logger the command's parts are given. Call once, first thing in `run()`.
    @discardableResult
    func start() -> Logger {
        let file = RotatingLogFile(url: fileURL) { problem in
            FileHandle.standardError.write(Data("tonearm: the log is not written: \(problem)\n".utf8))
        }
        let level = logLevel
        LoggingSystem.bootstrap { label in FileLogHandler(label: label, file: file, level: level) }
        let logger = Logger(label: "tonearm")
        CLILog.use(logger)
        logger.info("started", metadata: ["version": "\(TonearmVersion.current)", "level": "\(level.rawValue)"])
        return logger
    }
}

/// The logger of this process's command: silent until `LoggingOptions.start()` chose a file, so
/// a command without logging options writes nothing.
enum CLILog {
    private static let current = Mutex(Logger.silent)

    static var logger: Logger { current.withLock { $0 } }

    static func use(_ logger: Logger) { current.withLock { $0 = logger } }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
