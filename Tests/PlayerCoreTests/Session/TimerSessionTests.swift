import Foundation
import PlayerCore
import Testing

/// `tonearm timer`'s words become a session: durations as listeners write them, typed errors for
/// the rest, and a session file that plans into a silent stage with the timer's bells and bed.
@Suite struct TimerSessionTests {
    static func plan(_ timer: TimerSession) throws -> PlayRequest {
        try SessionPlanner.plan(timer.session(name: "Sit", title: "Timer"), base: URL(fileURLWithPath: "/music"), probe: { _ in nil })
    }

    @Test(arguments: [
        ("20m", 1_200.0), ("90s", 90), ("1h30m", 5_400), ("1h", 3_600), ("1h0m30s", 3_630), ("2.5m", 150), ("1:30:00", 5_400),
        ("30:00", 1_800), ("0:05", 5), ("1200", 1_200), ("2.5", 2.5), ("0", 0), (" 20M ", 1_200), ("24h", 86_400),
    ])
    func durationsReadAsListenersWriteThem(text: String, seconds: Double) throws {
        #expect(try TimerDuration.parse(text) == seconds)
    }

    @Test(arguments: ["", "m", "20x", "-5", "1:3", "1:60", "1::00", "1:2:3:4", "30m1h", "5m5m", "1.2.3", "20 m", "inf", "nan", "1e3"])
    func anythingElseIsNotADuration(text: String) {
        #expect(throws: TimerSessionError.notADuration(text)) { try TimerDuration.parse(text) }
    }

    @Test func moreThanADayIsRefusedAsSuch() {
        #expect(throws: TimerSessionError.longerThanADay(90_000)) { try TimerDuration.parse("25h") }
        #expect(throws: TimerSessionError.longerThanADay(90_000)) { try TimerSession(length: "25:00:00") }
    }

    @Test func bellTimesAreAListInTheOrderGiven() throws {
        #expect(try TimerDuration.parseList("0,25m,30m,55m") == [0, 1_500, 1_800, 3_300])
        #expect(throws: TimerSessionError.notADuration("")) { try TimerDuration.parseList("0,,5m") }
    }

    @Test func aTimedTimerIsOneSilentStageAsLongAsItWithBellsAtTheStartAndTheEnd() throws {
        let timer = try TimerSession(length: "20m")
        let file = timer.session(name: "Sit", title: "Timer 20:00")
        #expect(file.stages == [SessionFile.Stage(title: "Timer 20:00", source: "tonearm:silence", duration: 1_200)])
        #expect(file.bed == nil)
        #expect(file.bells == SessionFile.Bells(sound: "bowl"))
        let request = try Self.plan(timer)
        #expect(request.items.count == 1)
        #expect(request.items[0].track.url == BuiltInSound.silence.url)
        #expect(request.items[0].track.duration == 1_200)
        let bells = try #require(request.layers?.bells)
        #expect(request.layers?.length == 1_200)
        #expect(bells.url == BuiltInSound.bowl.url)
        #expect(bells.schedule.cue(after: 0, inclusive: true) == BellCue(at: 0, kind: .start))
        #expect(bells.schedule.cue(after: 0) == BellCue(at: 1_200, kind: .end))
    }

    @Test func intervalBellsABedAndADoubleStrike() throws {
        let timer = try TimerSession(
            length: "20m", bed: "brown", interval: "5m", strikes: 2, bellVolume: 0.6, bedVolume: 0.4)
        let file = timer.session(name: "Sit", title: "Timer")
        #expect(file.bed == SessionFile.Bed(source: "brown", level: 0.4))
        #expect(file.bells == SessionFile.Bells(sound: "bowl", level: 0.6, interval: 300, strikes: 2))
        let layers = try #require(try Self.plan(timer).layers)
        #expect(layers.bed?.url == BuiltInSound.brown.url)
        #expect(layers.bed?.level == 0.4)
        #expect(layers.bells?.strikes == 2)
        var cues: [BellCue] = []
        var cue = layers.bells?.schedule.cue(after: 0, inclusive: true)
        while let c = cue {
            cues.append(c)
            cue = layers.bells?.schedule.cue(after: c.at)
        }
        #expect(cues.map(\.at) == [0, 300, 600, 900, 1_200])
        #expect(cues.map(\.kind) == [.start, .interval, .interval, .interval, .end])
    }

    @Test func listedBellsForSittingAndWalking() throws {
        let timer = try TimerSession(length: "55m", bellsAt: "0,25m,30m,55m")
        #expect(timer.session(name: "Sit", title: "Timer").bells?.at == [0, 1_500, 1_800, 3_300])
        let schedule = try #require(try Self.plan(timer).layers?.bells?.schedule)
        #expect(schedule.cue(after: 0)?.at == 1_500)
        #expect(schedule.cue(after: 1_800) == BellCue(at: 3_300, kind: .end))
    }

    @Test func withoutALengthItCountsUpWithItsIntervalBellsAndNoEnd() throws {
        for timer in [try TimerSession(length: nil, interval: "10m"), try TimerSession(length: nil, openEnded: true, interval: "10m")] {
            #expect(timer.length == nil)
            let file = timer.session(name: "Sit", title: "Timer")
            #expect(file.stages[0].duration == nil)
            let request = try Self.plan(timer)
            #expect(request.items[0].track.duration == nil)
            #expect(request.layers?.length == nil)
            // Bells go on for as long as it plays: no last one.
            #expect(request.layers?.bells?.schedule.cue(after: 7_200) == BellCue(at: 7_800, kind: .interval))
        }
    }

    @Test func whatPlaysIsWhatIsKept() throws {
        let file = try TimerSession(length: "1:30:00", bed: "/sounds/rain.flac", bell: "/sounds/gong.wav", bellsAt: "0,45m", strikes: 3)
            .session(name: "Long sit", title: "Timer 1:30:00")
        let json = TimerSession.json(file)
        // The strict reader (unknown keys refused) reads back exactly the same session.
        #expect(try SessionFile.decode(json) == file)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains(#""source" : "tonearm:silence""#))
        #expect(!text.contains("null"))
    }

    @Test func everyProblemIsTyped() {
        #expect(throws: TimerSessionError.lengthAndOpenEnded) { try TimerSession(length: "20m", openEnded: true) }
        #expect(throws: TimerSessionError.intervalAndTimes) { try TimerSession(length: "20m", interval: "5m", bellsAt: "0") }
        #expect(throws: TimerSessionError.lengthTooShort) { try TimerSession(length: "0") }
        #expect(throws: TimerSessionError.lengthTooShort) { try TimerSession(length: "0.5s") }
        #expect(throws: TimerSessionError.intervalTooShort(0.5)) { try TimerSession(length: "20m", interval: "0.5s") }
        #expect(throws: TimerSessionError.bellAfterEnd(1_500, length: 1_200)) { try TimerSession(length: "20m", bellsAt: "0,25m") }
        #expect(throws: TimerSessionError.strikesOutOfRange(6)) { try TimerSession(length: "20m", strikes: 6) }
        #expect(throws: TimerSessionError.strikesOutOfRange(0)) { try TimerSession(length: "20m", strikes: 0) }
        #expect(throws: TimerSessionError.volumeOutOfRange(.bell, 1.5)) { try TimerSession(length: "20m", bellVolume: 1.5) }
        #expect(throws: TimerSessionError.volumeOutOfRange(.bed, -0.1)) { try TimerSession(length: "20m", bed: "pink", bedVolume: -0.1) }
        #expect(throws: TimerSessionError.noSound(.bell)) { try TimerSession(length: "20m", bell: " ") }
        #expect(throws: TimerSessionError.noSound(.bed)) { try TimerSession(length: "20m", bed: "") }
        #expect(throws: TimerSessionError.notADuration("soon")) { try TimerSession(length: "20m", interval: "soon") }
        let many = Array(repeating: "1", count: SessionFile.maximumBellTimes + 1).joined(separator: ",")
        #expect(throws: TimerSessionError.tooManyBells(SessionFile.maximumBellTimes)) { try TimerSession(length: "20m", bellsAt: many) }
    }
}
