import Foundation
import Library
import TestProcesses
import Testing

@Suite("iTunes durations")
struct ITunesDurationTests {
    static let accepted: [(String, Double)] = [
        ("3600", 3600.0), ("3600.5", 3600.5), ("59:30", 59 * 60 + 30), ("1:02:03", 3723), ("01:02:03", 3723), ("1:2:3", 3723),
        ("  1:02:03\n", 3723), ("1 : 02 : 03", 3723), ("75:30", 75 * 60 + 30), ("00:00:01", 1), ("59:30.25", 3570.25),
    ]

    @Test(arguments: accepted)
    func acceptedForms(text: String, seconds: Double) {
        #expect(ITunesDuration.seconds(from: text) == seconds)
    }

    @Test(arguments: [
        "-5", "-1:00", "abc", "", "   ", "1:2:3:4", "10:61", "1:75:00", "1:00:60", "1:-5", "1.5:00", "::", "1::", "3e3",
        "nan", "inf", "0", "00:00:00", "1 2", "9999999", "169:00:01",
    ])
    func refusedForms(text: String) {
        #expect(ITunesDuration.seconds(from: text) == nil)
    }

    @Test func sevenDaysIsTheLongestAccepted() {
        #expect(ITunesDuration.seconds(from: "\(Int(ITunesDuration.maxSeconds))") == ITunesDuration.maxSeconds)
        #expect(ITunesDuration.seconds(from: "168:00:00") == ITunesDuration.maxSeconds)
        #expect(ITunesDuration.seconds(from: "\(Int(ITunesDuration.maxSeconds) + 1)") == nil)
    }

    @Test func everyFixtureFormParsesInAFeed() throws {
        let feed = try RSSParser.parse(FeedFixtures.durationsFeed())
        #expect(feed.episodes.count == FeedFixtures.durationForms.count)
        for (index, form) in FeedFixtures.durationForms.enumerated() {
            let episode = try #require(feed.episodes.first { $0.guid == "d\(index)" })
            #expect(episode.duration == form.seconds, "\(form.text)")
        }
    }
}
