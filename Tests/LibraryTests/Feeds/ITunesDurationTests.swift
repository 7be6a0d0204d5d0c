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

    /// AntennaPod's duration tests (`DurationParserTest`, and `ConverterTest` for the long and the
    /// minutes-and-seconds forms), case by case.
    static let antennaPodCases: [(String, Double)] = [
        ("00:45", 45), ("\(2 * 60 * 60)", 2 * 3600), ("05:10", 5 * 60 + 10), ("02:15:45", 2 * 3600 + 15 * 60 + 45),
        ("00:00:00.123", 0.123), ("01:20:30", 4830), ("8:30", 510),
    ]

    @Test(arguments: antennaPodCases)
    func antennaPodCase(text: String, seconds: Double) {
        #expect(ITunesDuration.seconds(from: text) == seconds, "\(text)")
    }

    /// Milliseconds on any form, and whitespace of every kind around the text and the parts.
    @Test(arguments: [
        ("45.250", 45.25), ("05:10.5", 310.5), ("01:02:03.500", 3723.5), (" 45 ", 45),
        ("\t01:02:03\r\n", 3723), ("01 :02: 03", 3723), ("\u{00A0}05:10\u{00A0}", 310), ("200:00", 12000), ("100:00:00", 360_000),
    ])
    func millisecondsAndSpaces(text: String, seconds: Double) {
        #expect(ITunesDuration.seconds(from: text) == seconds, "\(text)")
    }

    /// Where AntennaPod reads a number but the text is no duration: later parts of 60 or more
    /// (it adds them up), negatives (it keeps them), a sign, an exponent (its float parsing), and
    /// zero (its "unknown" too, here nil), and more than `maxSeconds`.
    @Test(arguments: ["1:75:00", "1:60", "-5", "-00:45", "+5", "1.5e3", "0", "0.0", "00:00", "00:00:00.000", "200:00:00"])
    func antennaPodReadsButItIsNoDuration(text: String) {
        #expect(ITunesDuration.seconds(from: text) == nil, "\(text)")
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

    /// The byte reading of ASCII text must agree with the reading by characters on every short
    /// text of these pieces (CR LF is one character of two bytes).
    @Test func bytesAndCharactersAgreeOnEveryShortASCIIText() {
        let pieces = ["0", "1", "5", "9", ":", ".", " ", "\t", "e", "-", "\r", "\n"]
        var texts = [""]
        var disagreements: [String] = []
        var readable = 0
        for _ in 1...4 {
            texts = texts.flatMap { text in pieces.map { text + $0 } }
            for text in texts {
                let byBytes = ITunesDuration.secondsOfASCII(text)
                if byBytes != ITunesDuration.secondsByCharacters(text) { disagreements.append(text.debugDescription) }
                if byBytes != nil { readable += 1 }
            }
        }
        #expect(disagreements.isEmpty)
        #expect(readable > 1_000)
    }
}
