import Foundation

/// The wall clock an alarm reads (the monotonic one is the player's injected clock).
///
/// Test seam: `TONEARM_TEST_NOW` (an ISO 8601 instant with its offset, such as
/// `2026-03-02T06:59:57+01:00`) makes the clock read that instant when the process starts and
/// run on from there in real time, so a test sets an alarm for 07:00 and hears it three seconds
/// later. It exists for tests; a listener has no use for it.
package struct AlarmWallClock: Sendable {
    package let now: @Sendable () -> Date

    package init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// The system's clock.
    package static let system = AlarmWallClock { Date() }

    /// The environment variable of the test seam.
    package static let testNowVariable = "TONEARM_TEST_NOW"

    /// The system's clock, or the test seam's when the environment sets it; nil when it is set
    /// but is not an instant.
    package static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> AlarmWallClock? {
        guard let text = environment[testNowVariable] else { return .system }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        guard let start = formatter.date(from: text) else { return nil }
        let real = Date()
        return AlarmWallClock { start.addingTimeInterval(Date().timeIntervalSince(real)) }
    }
}
