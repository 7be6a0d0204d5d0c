import AnalyticsSharing
import Foundation
import LibraryKit
import PlayerCore

/// What `tonearm analytics share` does once its argument is parsed: the listener's consent to
/// opt-in sharing of hourly error counts. Off until the listener says otherwise; asked at most
/// once (`share` alone, on a terminal, while it was never answered).
package enum AnalyticsCommands {
    package enum Answer: String, Sendable, CaseIterable {
        case on, off, status
    }

    package static func share(_ answer: Answer?, library: LibraryContext) {
        let config = TerminalConfig.analyticsSharing()
        if let warning = config.warning { FileHandle.standardError.write(Data("tonearm: \(warning)\n".utf8)) }
        let state = CommandFailure.orExit { () throws(PlaybackError) in try library.store.analyticsSharing() }
        var next = state
        switch answer {
        case .on: next = state.granted(at: Date())
        case .off: next = state.declined()
        case .status: break
        case nil:
            if state.consent.mayAsk, isatty(STDIN_FILENO) != 0, isatty(STDOUT_FILENO) != 0 {
                next = ask(endpoint: config.endpoint) ? state.granted(at: Date()) : state.declined()
            }
        }
        if next != state {
            CommandFailure.orExit { () throws(PlaybackError) in try library.store.setAnalyticsSharing(next) }
        }
        print(AnalyticsSharingReport.text(next, endpoint: config.endpoint, rule: config.rule, now: Date()))
    }

    /// The one question. Anything but yes is a no, and is kept as one.
    private static func ask(endpoint: String?) -> Bool {
        print(AnalyticsSharingReport.whatIsSent)
        print("Share these counts with \(endpoint ?? "the endpoint set in config.toml")? [y/N] ", terminator: "")
        guard let line = readLine() else { return false }
        return ["y", "yes", "д", "да"].contains(line.trimmingCharacters(in: .whitespaces).lowercased())
    }
}
