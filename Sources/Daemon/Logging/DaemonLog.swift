import Foundation
import Logging
import PlayerCore
import PlayerKit

/// The daemon's log: the journal or a rotating file, bootstrapped once for the whole process.
/// A file is reopened on SIGHUP (after logrotate renamed it, the next record starts a new file).
package struct DaemonLog: Sendable {
    package let logger: Logger
    private let file: RotatingLogFile?

    /// Sends every `Logger` of the process to `target` at `level`. Call once, first thing.
    package static func start(_ target: DaemonLogTarget, level: Logger.Level) -> DaemonLog {
        var file: RotatingLogFile?
        switch target {
        case .journal:
            LoggingSystem.bootstrap { label in JournalLogHandler(label: label, level: level) }
        case .file(let url):
            let opened = RotatingLogFile(url: url) { problem in
                FileHandle.standardError.write(Data("tonearm: the log is not written: \(problem)\n".utf8))
            }
            file = opened
            LoggingSystem.bootstrap { label in FileLogHandler(label: label, file: opened, level: level) }
        }
        let logger = Logger(label: "tonearm")
        logger.info("started", metadata: ["version": "\(TonearmVersion.current)", "level": "\(level.rawValue)", "mode": "serve"])
        return DaemonLog(logger: logger, file: file)
    }

    /// Closes the log file so the next record opens it again under its name; nothing for the
    /// journal.
    package func reopen() {
        guard let file else { return }
        file.close()
        logger.notice("log reopened")
    }
}
