import Foundation
import Logging
import PlayerCore
import PlayerKit
import Synchronization

/// The logger of this process's command: silent until `start(level:file:)` chose a file, so a
/// command without logging options writes nothing.
package enum CommandLog {
    private static let current = Mutex(Logger.silent)

    package static var logger: Logger { current.withLock { $0 } }

    /// Sends every `Logger` of the process to `file` at `level`, and makes it the logger the
    /// command's parts are given. The program calls it once, first thing; libraries only take an
    /// injected `Logger`. The default level, `warning`, keeps failures only, so a normal run
    /// writes nothing; `debug` replays every decision of the player and every request.
    @discardableResult
    package static func start(level: Logger.Level, file url: URL) -> Logger {
        let file = RotatingLogFile(url: url) { problem in
            FileHandle.standardError.write(Data("tonearm: the log is not written: \(problem)\n".utf8))
        }
        LoggingSystem.bootstrap { label in FileLogHandler(label: label, file: file, level: level) }
        let logger = Logger(label: "tonearm")
        current.withLock { $0 = logger }
        logger.info("started", metadata: ["version": "\(TonearmVersion.current)", "level": "\(level.rawValue)"])
        return logger
    }
}
