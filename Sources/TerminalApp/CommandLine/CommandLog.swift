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
        var metadata: Logger.Metadata = ["version": "\(TonearmVersion.current)", "level": "\(level.rawValue)"]
        // The time before the first line: loading the program and its libraries, the runtime's start.
        if let launched = sinceLaunch() { metadata["sinceLaunch"] = "\(launched)ms" }
        logger.info("started", metadata: metadata)
        return logger
    }

    /// Marks a step between launch and the first sample (`--log-level debug`), so a slow start
    /// shows which step took the time: the lines' timestamps are the timeline.
    package static func startupStep(_ step: String) {
        logger.debug("startup", metadata: ["step": "\(step)"])
    }

    /// Milliseconds since the kernel started this process, to the kernel's clock tick (10 ms):
    /// /proc/self/stat's start time against /proc/uptime. Nil where either cannot be read.
    private static func sinceLaunch() -> Int? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let uptime = try? String(contentsOfFile: "/proc/uptime", encoding: .utf8),
            let afterName = stat.range(of: ")", options: .backwards),
            let seconds = uptime.split(separator: " ").first.flatMap({ Double($0) })
        else { return nil }
        // Fields after the command name start at field 3; the start time is field 22.
        let fields = stat[afterName.upperBound...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]) else { return nil }
        let started = ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
        return max(0, Int(((seconds - started) * 1000).rounded()))
    }
}
