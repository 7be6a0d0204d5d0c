import Foundation
import Library
import Testing

/// The dates the widest-reading podcast app reads (AntennaPod's `DateUtils`): each case of its
/// tests, then each pattern and rewrite of its parser, read here to the same instant.
@Suite("Feed dates: the forms podcast apps read")
struct FeedDateFormsTests {
    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0, ms: Int = 0) -> Date {
        FeedDateTests.utc(year, month, day, hour, minute, second).addingTimeInterval(Double(ms) / 1000)
    }

    /// AntennaPod's `DateUtilsTest`, case by case (its expected instants, in UTC).
    static let antennaPodTestCases: [(String, Date)] = [
        ("2015-03-28T13:31:04.963870", utc(2015, 3, 28, 13, 31, 4, ms: 963)),  // microseconds
        ("2015-03-28T13:31:04.96", utc(2015, 3, 28, 13, 31, 4, ms: 960)),  // centiseconds
        ("2024-05-08T22:18:52.485Z", utc(2024, 5, 8, 22, 18, 52, ms: 485)),  // Zulu
        ("2015-03-28T13:31:04.9", utc(2015, 3, 28, 13, 31, 4, ms: 900)),  // deciseconds
        ("2015-03-28T13:31:04.963870 +0700", utc(2015, 3, 28, 6, 31, 4, ms: 963)),
        ("2015-03-28T13:31:04.96 +0700", utc(2015, 3, 28, 6, 31, 4, ms: 960)),
        ("2015-03-28T13:31:04.9 +0700", utc(2015, 3, 28, 6, 31, 4, ms: 900)),
        ("Sat, 28 Mar 2015 01:31:04 EST", utc(2015, 3, 28, 6, 31, 4)),  // zone name
        ("Sat, 28 Mar 2015 01:31 EST", utc(2015, 3, 28, 6, 31)),  // and no seconds
        ("Sat, 28 March 2015 08:16:12 -0400", utc(2015, 3, 28, 12, 16, 12)),  // full month name
        ("Wed, 25 May 2011 12:33:00", utc(2011, 5, 25, 12, 33)),  // no zone
        ("Tue,  23 Mar   2010 01:06:26 -0500", utc(2010, 3, 23, 6, 6, 26)),  // runs of spaces
        ("2017-02-22T14:28:00.002-08:00", utc(2017, 2, 22, 22, 28, 0, ms: 2)),  // offset with a colon
        ("Sun, 29 Jan 2017 00:00:00 CEST", utc(2017, 1, 28, 22)),
        ("Sun, 29 Jan 2017 00:00:00 CET", utc(2017, 1, 28, 23)),
        ("Thu, 8 Oct 2014 09:00:00 GMT", utc(2014, 10, 8, 9)),  // a Wednesday really
        ("Mon, 8 Sept 2014 00:00:00 GMT", utc(2014, 9, 8)),  // `Sept`
        ("Sun 01 Mar 2015 01:00:00 GMT-0400 (EDT)", utc(2015, 3, 1, 5)),  // two zones
    ]

    @Test(arguments: antennaPodTestCases)
    func antennaPodTestCase(text: String, expected: Date) throws {
        let date = try #require(FeedDate.parse(text), "\(text)")
        // AntennaPod keeps milliseconds; the digits after them are kept here.
        #expect(abs(date.timeIntervalSince(expected)) < 0.001, "\(text): \(date)")
    }

    static let instant = utc(2015, 3, 28, 6, 31, 4)

    @Test(arguments: [
        ("2015-03-28", utc(2015, 3, 28)), ("2015/03/28", utc(2015, 3, 28)), ("2015-03-28+0100", utc(2015, 3, 27, 23)),
        ("2015-03-28-05:00", utc(2015, 3, 28, 5)), ("2015-03-28Z", utc(2015, 3, 28)), ("Sat Mar 28 06:31 2015", utc(2015, 3, 28, 6, 31)),
        ("28 Mar 15 01:31 -0500", utc(2015, 3, 28, 6, 31)), ("Sat, 28 Mar 2015 06:31", utc(2015, 3, 28, 6, 31)),
    ])
    func antennaPodDateOnlyAndMinutePatterns(text: String, expected: Date) {
        #expect(FeedDate.parse(text) == expected, "\(text)")
    }

    /// Fractions of any length, the instant to the nanosecond; a comma marks them too (ISO 8601).
    @Test(arguments: [
        ("2015-03-28T06:31:04.9Z", 0.9), ("2015-03-28T06:31:04.25Z", 0.25), ("2015-03-28T06:31:04.123456Z", 0.123_456),
        ("2015-03-28T06:31:04.123456789Z", 0.123_456_789), ("2015-03-28T06:31:04.1234567891234Z", 0.123_456_789),
        ("2015-03-28T06:31:04,5Z", 0.5),
    ])
    func fractionsOfAnyLength(text: String, fraction: Double) throws {
        let date = try #require(FeedDate.parse(text), "\(text)")
        #expect(abs(date.timeIntervalSince(Self.instant) - fraction) < 0.000_001, "\(text)")
    }

    /// ISO 8601 with a space, trailing text, one-digit fields and `24:00`.
    @Test(arguments: [
        "2003-06-10 04:00:00 +0000", "2003-06-10  04:00:00Z", "2003-06-10T04:00:00+00:00[Europe/London]",
        "2003-06-10T04:00:00Z (UTC)", "2003-06-10T04:00:00 UTC", "2003-06-10T4:00:00Z", "2003-6-10T04:00:00Z",
        "2003-06-09T24:00:00-04:00",
    ])
    func isoShapes(text: String) {
        #expect(FeedDate.parse(text) == FeedDateTests.june10, "\(text)")
    }
}
