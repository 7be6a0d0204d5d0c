import Foundation
import Logging
import PlayerCore
import Synchronization

/// The player's last states, written to `$XDG_STATE_HOME/tonearm/last-failure.json` when playback
/// fails, so a bug report (`tonearm report`) can show how the failure came about even when the log
/// was kept at its quiet default level.
///
/// Each entry is a state's name, when it began, and for a reconnect or a failure the attempt and
/// the error's type: never a title, an address or a path.
package final class FailureTimeline: Sendable {
    package struct Entry: Sendable, Codable, Hashable {
        package var at: Date
        package var state: String
        package var attempt: Int?
        package var error: String?
    }

    /// States kept before a failure: enough for a run of reconnect attempts and what led to it.
    package static let capacity = 40
    package static let fileName = "last-failure.json"

    private let file: URL
    private let now: @Sendable () -> Date
    private let logger: Logger
    private let entries = Mutex<[Entry]>([])

    package init(file: URL = FailureTimeline.defaultURL(), now: @escaping @Sendable () -> Date = Date.init, logger: Logger = .silent) {
        self.file = file
        self.now = now
        self.logger = logger
    }

    /// Next to the log, in the XDG state directory.
    package static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        LogFileLocation.defaultURL(environment: environment).deletingLastPathComponent().appendingPathComponent(fileName)
    }

    /// Reads one update; a failure writes the timeline that led to it.
    package func observe(_ update: PlayerUpdate) {
        guard case .state(let state, _, _) = update else { return }
        var entry = Entry(at: now(), state: state.name.rawValue)
        switch state {
        case .reconnecting(_, let attempt, _, _, let cause):
            entry.attempt = attempt
            entry.error = cause.code.typeName
        case .failed(let error, _, _):
            entry.error = error.code.typeName
        default:
            break
        }
        let written: [Entry]? = entries.withLock { entries in
            if let last = entries.last, last.state == entry.state, last.attempt == entry.attempt, last.error == entry.error { return nil }
            entries.append(entry)
            if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
            return state.name == .failed ? entries : nil
        }
        if let written { write(written) }
    }

    private func write(_ timeline: [Entry]) {
        do {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try encoder.encode(timeline).write(to: file, options: .atomic)
        } catch {
            logger.warning("failure timeline not written", metadata: ["error": "\(type(of: error))"])
        }
    }

    /// The timeline last written, or nil when no playback has failed (or it cannot be read).
    package static func read(from file: URL = defaultURL()) -> [Entry]? {
        guard let data = try? Data(contentsOf: file) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode([Entry].self, from: data)
    }
}
