import Foundation
import PlayerCore

/// `tonearm analytics share`'s text: the answer, where counts go, what was sent, what is next,
/// and what is ever in them.
package enum AnalyticsSharingReport {
    package static let whatIsSent = """
        Tonearm can send, once an hour at most, how many errors of each type (such as Network.timeout)
        happened in each whole hour, with a pseudonym that changes every week. Never a title, an
        address, a host, a path, a file name or anything you typed; nothing from before you agree.
        """

    package static func text(_ state: AnalyticsSharingState, endpoint: String?, rule: AnalyticsSharingRule, now: Date) -> String {
        var lines: [String] = []
        switch state.consent {
        case .granted: lines.append("Sharing error counts: on")
        case .declined: lines.append("Sharing error counts: off")
        case .undecided: lines.append("Sharing error counts: off (never answered; `tonearm analytics share on` turns it on)")
        }
        lines.append("Endpoint: \(endpoint ?? "none ([analytics] endpoint in config.toml); nothing can be sent")")
        lines.append("At most every: \(Int(rule.interval / 3600)) h")
        if state.consent == .granted {
            if let lastSent = state.lastSent { lines.append("Last accepted: \(stamp(lastSent))") }
            if let through = state.sentThrough { lines.append("Hours sent up to: \(stamp(through))") }
            if state.failures > 0 {
                lines.append("Last \(state.failures == 1 ? "try" : "\(state.failures) tries") failed; counts are kept and sent later")
            }
            if endpoint != nil, case .wait(let until) = rule.decide(state, now: now) {
                lines.append("Next: after \(stamp(until)), by a running `tonearm serve` or player")
            }
        }
        lines.append("")
        lines.append(whatIsSent)
        return lines.joined(separator: "\n")
    }

    private static func stamp(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false).timeSeparator(.colon)) + " UTC"
    }
}
