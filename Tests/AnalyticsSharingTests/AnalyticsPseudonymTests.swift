import Foundation
import Testing

@testable import AnalyticsSharing

/// The pseudonym is HMAC-SHA256 of the week under the machine's salt: the values here were computed
/// apart from Tonearm (Python's `hmac`), so a change to the message, the key or the cut shows as a
/// different identifier, which would split one player's counts at the collector.
@Suite("The analytics pseudonym")
struct AnalyticsPseudonymTests {
    let salt = [UInt8](1...16)
    let sunday = Date(timeIntervalSince1970: 1_795_910_400)  // 2026-11-29T00:00:00Z, in week 2969

    @Test func isTheHMACOfTheWeekUnderTheSalt() {
        #expect(AnalyticsPseudonym.period(of: sunday) == 2969)
        #expect(AnalyticsPseudonym.identifier(salt: salt, at: sunday) == "b724e12fee1eb678")
    }

    @Test func changesWithTheWeekAndStaysWithinIt() {
        let laterThatWeek = sunday.addingTimeInterval(86_400)
        let nextWeek = sunday.addingTimeInterval(AnalyticsPseudonym.rotationSeconds)
        #expect(AnalyticsPseudonym.identifier(salt: salt, at: laterThatWeek) == "b724e12fee1eb678")
        #expect(AnalyticsPseudonym.identifier(salt: salt, at: nextWeek) == "6c77533c0f93ca28")
    }
}
