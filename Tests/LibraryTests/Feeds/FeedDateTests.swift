import Foundation
import Library
import TestProcesses
import Testing

@Suite("Feed dates")
struct FeedDateTests {
    /// The oracle: Foundation's Gregorian calendar in UTC.
    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))!
    }

    static let june10 = utc(2003, 6, 10, 4)

    @Test(arguments: [
        "Tue, 10 Jun 2003 04:00:00 GMT", "Tue, 10 Jun 2003 04:00:00 +0000", "Tue, 10 Jun 2003 04:00:00 UT",
        "Tue, 10 Jun 2003 04:00:00 UTC", "Tue, 10 Jun 2003 04:00:00 Z", "10 Jun 2003 04:00:00 GMT",
        "Fri, 10 Jun 2003 04:00:00 GMT", "Tuesday, 10 June 2003 04:00:00 GMT", "Tue, 10 Jun 03 04:00:00 GMT",
        "  Tue,   10  Jun   2003 04:00:00    GMT  ", "tue, 10 jun 2003 04:00:00 gmt", "Tue, 10 Jun 2003 04:00:00 +0000 (UTC)",
        "Tue, 10 Jun 2003 06:00:00 GMT+0200", "Tue, 10 Jun 2003 09:30:00 +05:30", "Tue,10 Jun 2003 04:00:00 GMT",
        "Tue, Jun 10 2003 04:00:00 GMT", "Tue, 10 Jun 2003 04:00:00GMT", "Tue, 10 Jun 2003 4:00:00 AM GMT",
        "2003-06-10T04:00:00Z", "2003-06-10T06:00:00+02:00", "2003-06-10T00:00:00-0400", "2003-06-10 04:00:00",
        "2003-06-10T04:00Z",
    ])
    func shapesOfOneInstant(text: String) {
        #expect(FeedDate.parse(text) == Self.june10, "\(text)")
    }

    static let zoneOffsets: [(String, Int)] = [
        ("EST", -5), ("EDT", -4), ("CST", -6), ("CDT", -5), ("MST", -7), ("MDT", -6), ("PST", -8), ("PDT", -7), ("GMT", 0),
        ("+0000", 0), ("-0500", -5), ("+0100", 1),
    ]

    @Test(arguments: zoneOffsets)
    func zones(zone: String, hours: Int) {
        let local = "Tue, 10 Jun 2003 12:00:00 \(zone)"
        #expect(FeedDate.parse(local) == Self.utc(2003, 6, 10, 12 - hours), "\(zone)")
    }

    @Test func missingSecondsSingleDigitDayTwoDigitYearsAndPM() {
        #expect(FeedDate.parse("Tue, 10 Jun 2003 04:00 GMT") == Self.june10)
        #expect(FeedDate.parse("Tue, 3 Jun 2003 04:05:06 GMT") == Self.utc(2003, 6, 3, 4, 5, 6))
        #expect(FeedDate.parse("Thu, 3 Jun 99 04:05:06 GMT") == Self.utc(1999, 6, 3, 4, 5, 6))
        #expect(FeedDate.parse("3 Sept 2024 10:00:00 GMT") == Self.utc(2024, 9, 3, 10))
        #expect(FeedDate.parse("3 Sep 2024 10:00 PM GMT") == Self.utc(2024, 9, 3, 22))
        #expect(FeedDate.parse("3 Sep 2024 12:00 AM GMT") == Self.utc(2024, 9, 3, 0))
        #expect(FeedDate.parse("29 Feb 2024 10:00:00 GMT") == Self.utc(2024, 2, 29, 10))
        #expect(FeedDate.parse("Fri, 01 Mar 2024") == Self.utc(2024, 3, 1))
    }

    @Test func isoFallbackWithFractionsAndDateOnly() throws {
        #expect(FeedDate.parse("2024-03-01T10:00:00Z") == Self.utc(2024, 3, 1, 10))
        #expect(FeedDate.parse("2024-03-01") == Self.utc(2024, 3, 1))
        let fractional = try #require(FeedDate.parse("2024-03-01T10:00:00.250Z"))
        #expect(abs(fractional.timeIntervalSince(Self.utc(2024, 3, 1, 10)) - 0.25) < 0.000_1)
    }

    @Test(arguments: [
        "", "   ", "not a date", "Tue, 31 Feb 2003 04:00:00 GMT", "29 Feb 2023 10:00:00 GMT", "Tue, 10 Foo 2003 04:00:00 GMT",
        "10 Jun 2003 25:00:00 GMT", "10 Jun 2003 04:61:00 GMT", "2024-13-01T00:00:00Z", "2024-03-01T10:00:00+99:00",
        "Tue, 10 Jun Jul 2003", "10 Jun 123456 04:00:00 GMT", "13 PM", String(repeating: "1", count: 200),
    ])
    func unparseableIsNil(text: String) {
        #expect(FeedDate.parse(text) == nil, "\(text)")
    }

    /// Where lenient parsers (AntennaPod's first pass among them) roll an impossible date or time
    /// over into the next month or day, it is no date here: the text is wrong, and a guess would
    /// sort the episode among the wrong ones.
    @Test(arguments: [
        "Sat, 31 Feb 2015 06:31:04 GMT", "Sat, 28 Mar 2015 24:30:00 GMT", "Sat, 28 Mar 2015 06:31:04 +9900",
        "2015-03-28T24:00:01Z", "2015-03-28T06:31:04+0000garbage", "2015-03-28X06:31:04Z", "Sat, 28 Mar 2015 06:31:04 -- 5",
    ])
    func impossibleOrMalformedIsNilNotRolledOver(text: String) {
        #expect(FeedDate.parse(text) == nil, "\(text)")
    }

    /// Two-digit years follow RFC 2822 (below 50 is 20xx), with a weekday or without; Java's
    /// `yyyy` reads `15` as the year 15 and its `yy` slides with today's date.
    @Test func twoDigitYearsFollowRFC2822() {
        #expect(FeedDate.parse("Sat, 28 Mar 15 06:31:04 GMT") == Self.utc(2015, 3, 28, 6, 31, 4))
        #expect(FeedDate.parse("28 Mar 49 06:31:04 GMT") == Self.utc(2049, 3, 28, 6, 31, 4))
        #expect(FeedDate.parse("28 Mar 50 06:31:04 GMT") == Self.utc(1950, 3, 28, 6, 31, 4))
    }

    /// A date in the future is read as written; whether an episode may be dated ahead is the
    /// feed reader's decision, not the date reader's.
    @Test func futureDatesAreReadAsWritten() {
        #expect(FeedDate.parse("Sat, 28 Mar 2099 06:31:04 GMT") == Self.utc(2099, 3, 28, 6, 31, 4))
    }

    /// Text after a complete date is ignored, but a word that fits nowhere before it makes the
    /// text no date, and of two offsets the first counts.
    @Test func trailingTextEndsOnlyACompleteDate() {
        #expect(FeedDate.parse("Sat, 28 Mar 2015 06:31:04 GMT Mar 1999 12:00") == Self.utc(2015, 3, 28, 6, 31, 4))
        #expect(FeedDate.parse("Sat, 28 Mar 2015 06:31:04 +0100 +0500") == Self.utc(2015, 3, 28, 5, 31, 4))
        #expect(FeedDate.parse("Sat, 28 Mar #5 2015 06:31:04 GMT") == nil)
    }

    @Test func rfc822OutputMatchesFoundationAndReadsBack() {
        let dates = [Self.june10, Self.utc(1970, 1, 1), Self.utc(2024, 2, 29, 23, 59, 59), Self.utc(1999, 12, 31, 0, 0, 1), Self.utc(2100, 3, 1, 12)]
        for date in dates {
            let text = FeedDate.rfc822String(from: date)
            #expect(text == FeedFixtures.rfc822(date))
            #expect(FeedDate.parse(text) == date)
        }
    }

    @Test func everyFixtureFormInAFeedIsToleratedAndParsedWhenPossible() throws {
        let feed = try RSSParser.parse(FeedFixtures.datesFeed())
        #expect(feed.episodes.count == FeedFixtures.dateForms.count)
        for (index, text) in FeedFixtures.dateForms.enumerated() {
            let episode = try #require(feed.episodes.first { $0.guid == "date\(index)" })
            #expect(episode.publishedAt == FeedDate.parse(text), "\(text)")
        }
        // The readable ones are all the same instant; the broken ones are nil, never an error.
        let readable = feed.episodes.compactMap(\.publishedAt)
        #expect(readable.count == FeedFixtures.dateForms.count - 3)
        #expect(readable.allSatisfy { $0 == Self.june10 })
    }
}
