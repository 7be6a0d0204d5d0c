import Foundation
import Testing

@testable import PlayerCore

/// A third-party error whose text carries personal data, as a real HTTP or file error might.
private struct LeakyError: Error, CustomStringConvertible {
    let description: String
}

@Suite("ErrorAnalytics: privacy")
struct ErrorAnalyticsPrivacyTests {
    static let canaryURL = "https://alice:s3cret@radio.example.com/live?token=CANARY123"
    static let canaryPath = "/home/alice/Music/Secret Song.mp3"
    static let canaryTitle = "Canary Title Ω"
    static let canaries = ["CANARY123", "s3cret", "alice", "/home/", "Secret Song", "Canary Title", "radio.example.com"]

    /// Errors built the way the engine builds them, through `PlaybackError.from(_:)`, from
    /// underlying errors that hold every canary.
    static func leakyErrors() -> [PlaybackError] {
        let everything = "failed to open \(canaryURL) for \(canaryTitle) cached at \(canaryPath)"
        return [
            PlaybackError.from(LeakyError(description: everything)),
            PlaybackError.from(NSError(
                domain: "NSURLErrorDomain", code: -1001,
                userInfo: [NSLocalizedDescriptionKey: "timed out: \(canaryURL)", "NSErrorFailingURLStringKey": canaryURL]
            )),
            PlaybackError.from(NSError(
                domain: NSCocoaErrorDomain, code: NSFileReadNoSuchFileError,
                userInfo: [NSFilePathErrorKey: canaryPath, NSLocalizedDescriptionKey: "no file \(canaryPath)"]
            )),
            PlaybackError.from(POSIXError(.ECONNRESET)),
            PlaybackError.from(errno: ETIMEDOUT, underlying: "\(canaryTitle) @ \(canaryURL)"),
        ]
    }

    @Test func canariesReachTheErrorsButNeverTheAnalytics() async throws {
        let errors = Self.leakyErrors()
        // Precondition: the canaries really are inside the typed errors (for logs), so the test
        // proves that analytics drops them, not that they were never there.
        let errorText = errors.map { String(describing: $0) }.joined(separator: "\n")
        for canary in ["CANARY123", "s3cret", "alice", "/home/", "Secret Song", "Canary Title", "radio.example.com"] {
            #expect(errorText.contains(canary), "precondition: \(canary) is in an underlying error")
        }
        #expect(Set(errors.map(\.errorType)).count >= 4)

        let analytics = ErrorAnalytics(now: ErrorAnalyticsTestClock().function)
        // Callers misusing the labels: a URL, a path and a title where identifiers belong.
        let labels: [(AnalyticsIdentifier, AnalyticsIdentifier?)] = [
            (AnalyticsIdentifier(Self.canaryURL), AnalyticsIdentifier(Self.canaryTitle)),
            (AnalyticsIdentifier(Self.canaryPath), nil),
            (AnalyticsIdentifier(rawValue: Self.canaryTitle), AnalyticsIdentifier(Self.canaryURL)),
            ("playStation", AnalyticsIdentifier(Self.canaryPath)),
            ("Canary Title Ω", "https://alice:s3cret@radio.example.com/live?token=CANARY123"),
        ]
        var events: [ErrorEvent] = []
        for (index, error) in errors.enumerated() {
            let (operation, userAction) = labels[index % labels.count]
            events.append(await analytics.record(error, operation: operation, userAction: userAction))
        }
        await analytics.recordResolution(events[0].id, .automaticRetry)
        await analytics.recordResolution(events[2].id, .manualRetry)

        let stored = try await analytics.events()
        #expect(stored.count == errors.count)
        #expect(stored.allSatisfy { $0.operation == .other || $0.operation == "playStation" })
        #expect(stored.allSatisfy { $0.userAction == nil || $0.userAction == .other })

        let surfaces: [(String, String)] = [
            ("export", String(decoding: try await analytics.exportJSON(), as: UTF8.self)),
            ("summary", String(decoding: try ErrorAnalytics.makeEncoder().encode(try await analytics.summary(topCount: 100)), as: UTF8.self)),
            ("events", String(describing: stored)),
            ("recorded", String(describing: events)),
            ("dump", { var out = ""; dump(stored, to: &out); return out }()),
            ("summaryValue", String(describing: try await analytics.summary(topCount: 100))),
        ]
        for (name, text) in surfaces {
            #expect(!text.isEmpty)
            for canary in Self.canaries {
                #expect(!text.localizedCaseInsensitiveContains(canary), "\(canary) leaked into \(name)")
            }
        }
    }

    @Test func errorTypeComesOnlyFromTheTypedError() async throws {
        let analytics = ErrorAnalytics(now: ErrorAnalyticsTestClock().function)
        let error = PlaybackError(.unknown, underlying: "Network.timeout \(Self.canaryURL)")
        let event = await analytics.record(error, operation: "play")
        #expect(event.errorType == "System.unknown")
        #expect(event.isRetryable == error.isRetryable)
    }
}
