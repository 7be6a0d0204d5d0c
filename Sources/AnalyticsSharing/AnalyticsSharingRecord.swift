import Foundation
import Library
import PlayerCore

/// Where opt-in sharing keeps its state: the library's settings, one key each, so the answer and
/// the sent hours survive restarts and every Tonearm process on the machine agrees on them.
extension LibraryStore {
    private enum Key {
        static let consent = "analytics.share"
        static let sentThrough = "analytics.share.sentThrough"
        static let lastSent = "analytics.share.lastSent"
        static let lastAttempt = "analytics.share.lastAttempt"
        static let failures = "analytics.share.failures"
        static let retryRefused = "analytics.share.retryRefused"
        static let salt = "analytics.share.salt"
    }

    package func analyticsSharing() throws(PlaybackError) -> AnalyticsSharingState {
        AnalyticsSharingState(
            consent: try setting(Key.consent).flatMap(AnalyticsConsent.init(rawValue:)) ?? .undecided,
            sentThrough: try date(Key.sentThrough),
            lastSent: try date(Key.lastSent),
            lastAttempt: try date(Key.lastAttempt),
            failures: try setting(Key.failures).flatMap { Int($0) } ?? 0,
            retryRefused: try setting(Key.retryRefused) == "true")
    }

    package func setAnalyticsSharing(_ state: AnalyticsSharingState) throws(PlaybackError) {
        try setSetting(Key.consent, state.consent == .undecided ? nil : state.consent.rawValue)
        try setDate(Key.sentThrough, state.sentThrough)
        try setDate(Key.lastSent, state.lastSent)
        try setDate(Key.lastAttempt, state.lastAttempt)
        try setSetting(Key.failures, state.failures == 0 ? nil : String(state.failures))
        try setSetting(Key.retryRefused, state.retryRefused ? "true" : nil)
    }

    /// The machine's secret for the rotating pseudonym: 32 random bytes made once, never sent.
    package func analyticsSalt() throws(PlaybackError) -> [UInt8] {
        if let hex = try setting(Key.salt), let bytes = Self.bytes(hex: hex), bytes.count == 32 { return bytes }
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        try setSetting(Key.salt, bytes.map { String(format: "%02x", $0) }.joined())
        return bytes
    }

    private func date(_ key: String) throws(PlaybackError) -> Date? {
        try setting(key).flatMap { Double($0) }.map { Date(timeIntervalSince1970: $0) }
    }

    private func setDate(_ key: String, _ date: Date?) throws(PlaybackError) {
        try setSetting(key, date.map { String(Int64($0.timeIntervalSince1970.rounded(.down))) })
    }

    private static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}
