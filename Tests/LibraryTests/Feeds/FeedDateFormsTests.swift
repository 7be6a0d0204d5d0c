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

    /// Every pattern AntennaPod tries, and the text it rewrites before trying them (`/` for `-`,
    /// `+07:00` for `+0700`, `CEST`, `Sept`, fractions of any length, a leading `word, `), and
    /// what its first, lenient RFC 822 pass reads (trailing text, spelled-out zones).
    @Test(arguments: [
        "28 Mar 15 01:31:04 -0500", "28 Mar 15 01:31:04 EST", "Sat, 28 Mar 2015 06:31:04 +0000",
        "Sat, 28 Mar 2015 06:31:04", "Sat, 28 March 2015 06:31:04 GMT", "Sat, 28 March 2015 06:31:04",
        "Saturday, 28 Mar 2015 01:31:04 -0500", "Saturday, 28 Mar 15 01:31:04 -0500", "Saturday, 28 Mar 2015 06:31:04",
        "Saturday, 28 Mar 15 06:31:04", "Sat Mar 28 06:31:04 2015", "Sat Mar 28 06:31:04 UTC 2015",
        "2015-03-28T06:31:04", "2015-03-28T06:31:04Z", "2015-03-28T01:31:04-0500", "2015-03-28T01:31:04-05:00",
        "2015-03-28T07:31:04+01", "2015/03/28T06:31:04Z", "2015-03-28T06:31:04.000Z", "2015-03-28T06:31:04.000 +0000",
        "2015-03-28T08:31:04 CEST", "Sat, 28 Mar 2015 07:31:04 CET", "Sat, 28 Mar 2015 08:31:04 +02:00",
        "Samstag, 28 Mar 2015 06:31:04 GMT", "sáb., 28 Mar 2015 06:31:04 GMT", "Sat, 28 Mar 2015 06:31:04 +0000 garbage",
        "Sat, 28 Mar 2015 06:31:04 GMT by the feed", "Sat, 28 Mar 2015 01:31:04 Eastern Standard Time",
        "Sat, 28 Mar 2015 02:31:04 Eastern Daylight Time", "Sat, 28 Mar 2015 02:31:04 GMT-04:00",
        "Sat, 28 Mar 2015 06:31:04.000 GMT",
    ])
    func antennaPodPattern(text: String) {
        #expect(FeedDate.parse(text) == Self.instant, "\(text)")
    }

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

    /// Named zones, each read to its offset (`12:00` local).
    @Test(arguments: [
        ("GMT", 0), ("UT", 0), ("UTC", 0), ("Z", 0), ("EST", -300), ("EDT", -240), ("CST", -360), ("CDT", -300),
        ("MST", -420), ("MDT", -360), ("PST", -480), ("PDT", -420), ("AKST", -540), ("HST", -600), ("AST", -240),
        ("NST", -210), ("BST", 60), ("WET", 0), ("CET", 60), ("CEST", 120), ("EET", 120), ("EEST", 180), ("MSK", 180),
        ("IST", 330), ("JST", 540), ("AEST", 600), ("AEDT", 660), ("NZST", 720), ("NZDT", 780),
        ("Pacific Daylight Time", -420), ("Central European Summer Time", 120), ("+0530", 330), ("+05:30", 330),
        ("-0930", -570), ("+05", 300), ("GMT+2", 120), ("UTC-05:00", -300), ("GMT +0200", 120), ("-0500 (EST)", -300),
        ("+0000 UTC", 0), ("EST -0800", -480),
    ] as [(String, Int)])
    func zones(zone: String, minutes: Int) {
        let text = "Sat, 28 Mar 2015 12:00:00 \(zone)"
        #expect(FeedDate.parse(text) == Self.utc(2015, 3, 28, 12).addingTimeInterval(Double(-minutes * 60)), "\(text)")
    }

    /// Month names as generators set to other languages write them, with or without accents, a
    /// weekday of that language before a comma, and a day with a dot after it.
    @Test(arguments: [
        ("Di, 10. Juni 2003 04:00:00 GMT", 6), ("10 März 2003 04:00:00 GMT", 3), ("10 Maerz 2003 04:00:00 GMT", 3),
        ("mar., 10 juin 2003 04:00:00 GMT", 6), ("martes, 10 junio 2003 04:00:00 GMT", 6), ("10 giugno 2003 04:00:00 GMT", 6),
        ("10 dicembre 2003 04:00:00 GMT", 12), ("10 outubro 2003 04:00:00 GMT", 10), ("10 mei 2003 04:00:00 GMT", 5),
        ("Вт, 10 июня 2003 04:00:00 GMT", 6), ("10 ИЮН 2003 04:00:00 GMT", 6), ("10 Sept. 2003 04:00:00 GMT", 9),
        ("10 fevrier 2003 04:00:00 GMT", 2), ("10 février 2003 04:00:00 GMT", 2), ("10 déc 2003 04:00:00 GMT", 12),
        ("10 août 2003 04:00:00 GMT", 8),
    ])
    func localisedMonthNames(text: String, month: Int) {
        #expect(FeedDate.parse(text) == FeedDateTests.utc(2003, month, 10, 4), "\(text)")
    }

    /// US and RFC 850 shapes: month first with an ordinal day, `at`, `AM`, `10-Jun-2003`.
    @Test(arguments: [
        "Tuesday, June 10th, 2003 at 4:00 AM GMT", "June 10, 2003 4:00am", "Jun 10 2003 04:00:00 GMT", "10-Jun-2003 04:00:00 GMT",
        "Tuesday, 10-Jun-03 04:00:00 GMT", "Mon, 9 Jun 2003 24:00 -0400",
    ])
    func usAndRFC850Shapes(text: String) {
        #expect(FeedDate.parse(text) == FeedDateTests.june10, "\(text)")
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
