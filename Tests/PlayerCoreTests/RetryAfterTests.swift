import Foundation
import Testing

@testable import PlayerCore

@Suite struct RetryAfterTests {
    /// Sun, 06 Nov 1994 08:49:37 GMT, RFC 9110's example date.
    static let exampleDate = Date(timeIntervalSince1970: 784111777)

    @Test func deltaSeconds() {
        #expect(RetryAfter.parse("120") == .seconds(120))
        #expect(RetryAfter.parse("0") == .seconds(0))
        #expect(RetryAfter.parse(" 5 ") == .seconds(5))
        #expect(RetryAfter.parse("\t7") == .seconds(7))
    }

    @Test(arguments: ["-3", "abc", "", "   ", "1.5", "+5", "5s", "1e3", "٣", "0x10", "Sun, 06 Nov 1994"])
    func invalidValues(value: String) {
        #expect(RetryAfter.parse(value) == nil, "\(value)")
    }

    @Test(arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT",  // IMF-fixdate
        "Sunday, 06-Nov-94 08:49:37 GMT",  // obsolete RFC 850
        "Sun Nov  6 08:49:37 1994",  // asctime
    ])
    func httpDates(value: String) {
        #expect(RetryAfter.parse(value) == .date(Self.exampleDate), "\(value)")
    }

    @Test func httpDateAmongSpaces() {
        #expect(RetryAfter.parse("  Sun, 06 Nov 1994 08:49:37 GMT ") == .date(Self.exampleDate))
    }

    @Test func delayOfADate() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(RetryAfter.date(now.addingTimeInterval(30)).delay(now: now) == 30)
        #expect(RetryAfter.date(now.addingTimeInterval(-30)).delay(now: now) == 0)
        #expect(RetryAfter.date(now).delay(now: now) == 0)
        // An old date from the header parses fine and means "now".
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT")?.delay(now: now) == 0)
    }

    @Test func delayOfSeconds() {
        let now = Date()
        #expect(RetryAfter.seconds(120).delay(now: now) == 120)
        #expect(RetryAfter.seconds(0).delay(now: now) == 0)
        #expect(RetryAfter.seconds(-5).delay(now: now) == 0)
        #expect(RetryAfter.seconds(.nan).delay(now: now) == 0)
    }

    @Test func hugeValuesAreCapped() throws {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(RetryAfter.seconds(RetryAfter.maximumDelay + 1).delay(now: now) == RetryAfter.maximumDelay)
        #expect(RetryAfter.seconds(1e12).delay(now: now) == RetryAfter.maximumDelay)
        #expect(RetryAfter.date(now.addingTimeInterval(86_400 * 365)).delay(now: now) == RetryAfter.maximumDelay)
        #expect(try #require(RetryAfter.parse("99999999")).delay(now: now) == RetryAfter.maximumDelay)
        // So many digits that the Double overflows to infinity: still the cap, never "retry now".
        let overflow = try #require(RetryAfter.parse(String(repeating: "9", count: 400)))
        #expect(overflow.delay(now: now) == RetryAfter.maximumDelay)
        #expect(RetryAfter.seconds(.infinity).delay(now: now) == RetryAfter.maximumDelay)
    }

    @Test func codableRoundTrip() throws {
        for value in [RetryAfter.seconds(42), .date(Self.exampleDate)] {
            let data = try JSONEncoder().encode(value)
            #expect(try JSONDecoder().decode(RetryAfter.self, from: data) == value)
        }
    }
}
