import Foundation
import PlayerCore
import Testing

/// A session file's `bed` and `bells`: strict keys, every range checked, and the plan they resolve
/// to (defaults, built-in sounds, files beside the session, the end bell at the session's length).
@Suite("Session file layers")
struct SessionLayersFileTests {
    static func decode(_ json: String) throws(PlaybackError) -> SessionFile { try SessionFile.decode(Data(json.utf8)) }

    /// A session with one 600 s stage and `layers` (JSON members) beside it.
    static func session(_ layers: String) -> String {
        #"{"stages": [{"source": "a.flac"}], "# + layers + "}"
    }

    static func plan(_ json: String, sources: [String: Double] = [:], defaultLength: Double? = 600) throws -> PlayRequest {
        try SessionPlanner.plan(try decode(json), base: URL(fileURLWithPath: "/sessions")) { url in
            sources[url.lastPathComponent] ?? defaultLength
        }
    }

    /// Decoding fails with `malformedData`, and its text names `words`.
    static func rejects(_ json: String, saying words: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try decode(json)
            Issue.record("accepted: \(json)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == .malformedData, sourceLocation: sourceLocation)
            #expect((error.underlying ?? "").contains(words), "\(error.underlying ?? "")", sourceLocation: sourceLocation)
        }
    }

    @Test func aFullBedAndBellsDecode() throws {
        let file = try Self.decode(
            Self.session(
                """
                "bed": {"source": "rain.ogg", "level": 0.5, "fadeIn": 3, "fadeOut": 10, "loopCrossfade": 4, "duck": -18, "attack": 0.3, "release": 1.5},
                "bells": {"sound": "gong.wav", "level": 0.7, "at": [0, 1500, 1800], "start": false, "end": true, "strikes": 2, "strikeSpacing": 4}
                """))
        #expect(file.bed == SessionFile.Bed(source: "rain.ogg", level: 0.5, fadeIn: 3, fadeOut: 10, loopCrossfade: 4, duck: -18, attack: 0.3, release: 1.5))
        #expect(file.bells == SessionFile.Bells(sound: "gong.wav", level: 0.7, at: [0, 1500, 1800], start: false, end: true, strikes: 2, strikeSpacing: 4))
        // A stage marked as voice.
        let voiced = try Self.decode(#"{"stages": [{"source": "talk.opus", "voice": true}, {"source": "a.flac"}]}"#)
        #expect(voiced.stages.map(\.voice) == [true, nil])
    }

    @Test func unknownKeysInTheBedOrTheBellsAreErrors() {
        Self.rejects(Self.session(#""bed": {"source": "rain.ogg", "levle": 0.5}"#), saying: #"bed: unknown key "levle""#)
        Self.rejects(Self.session(#""bells": {"intervall": 300}"#), saying: #"bells: unknown key "intervall""#)
        Self.rejects(Self.session(#""bed": {"source": "rain.ogg"}, "bell": {}"#), saying: #"unknown key "bell""#)
        // A stage's own keys are still checked, `voice` among the known ones.
        Self.rejects(#"{"stages": [{"source": "a.flac", "voices": true}]}"#, saying: #"unknown key "voices""#)
    }

    @Test func everyRangeIsChecked() {
        let bad: [(String, String)] = [
            (#""bed": {"source": "  "}"#, "bed has no source"),
            (#""bed": {"source": "r.ogg", "level": 1.01}"#, "bed level"),
            (#""bed": {"source": "r.ogg", "level": -0.1}"#, "bed level"),
            (#""bed": {"source": "r.ogg", "fadeIn": -1}"#, "bed fadeIn"),
            (#""bed": {"source": "r.ogg", "fadeIn": 61}"#, "bed fadeIn"),
            (#""bed": {"source": "r.ogg", "fadeOut": 60.5}"#, "bed fadeOut"),
            (#""bed": {"source": "r.ogg", "loopCrossfade": 31}"#, "bed loopCrossfade"),
            (#""bed": {"source": "r.ogg", "duck": 1}"#, "bed duck"),
            (#""bed": {"source": "r.ogg", "duck": -41}"#, "bed duck"),
            (#""bed": {"source": "r.ogg", "attack": 0.01}"#, "bed attack"),
            (#""bed": {"source": "r.ogg", "attack": 11}"#, "bed attack"),
            (#""bed": {"source": "r.ogg", "release": 0}"#, "bed release"),
            (#""bells": {"sound": ""}"#, "bells sound is empty"),
            (#""bells": {"level": 2}"#, "bells level"),
            (#""bells": {"at": [0, -5]}"#, "a bell time"),
            (#""bells": {"at": [86401]}"#, "a bell time"),
            (#""bells": {"interval": 0.99}"#, "bells interval"),
            (#""bells": {"interval": 86401}"#, "bells interval"),
            (#""bells": {"strikes": 0}"#, "bells strikes"),
            (#""bells": {"strikes": 6}"#, "bells strikes"),
            (#""bells": {"strikeSpacing": 0.5}"#, "bells strikeSpacing"),
            (#""bells": {"strikeSpacing": 11}"#, "bells strikeSpacing"),
        ]
        for (layers, words) in bad { Self.rejects(Self.session(layers), saying: words) }
        let tooMany = (0...SessionFile.maximumBellTimes).map(String.init).joined(separator: ",")
        Self.rejects(Self.session(#""bells": {"at": [\#(tooMany)]}"#), saying: "more than 1000 bell times")
        // A bound is inside its range.
        let edges = [
            #""bed": {"source": "r.ogg", "level": 0, "fadeIn": 0, "fadeOut": 60, "loopCrossfade": 30, "duck": -40, "attack": 0.05, "release": 10}"#,
            #""bed": {"source": "r.ogg", "level": 1, "duck": 0, "attack": 10, "release": 0.05}"#,
            #""bells": {"at": [0, 86400], "strikes": 5, "strikeSpacing": 10, "level": 0}"#,
            #""bells": {"interval": 10, "strikes": 1, "strikeSpacing": 1, "level": 1}"#,
            #""bells": {"interval": 86400}"#,
        ]
        for layers in edges {
            #expect(throws: Never.self, "\(layers)") { try Self.decode(Self.session(layers)) }
        }
    }

    @Test func listedTimesAndAnIntervalExcludeEachOther() throws {
        Self.rejects(Self.session(#""bells": {"at": [60], "interval": 300}"#), saying: "give at or interval, not both")
        // Either alone, or neither (a start and an end bell only).
        let at = try Self.plan(Self.session(#""bells": {"at": [60, 120]}"#))
        #expect(at.layers?.bells?.schedule == BellSchedule(times: [60, 120], length: 600))
        let interval = try Self.plan(Self.session(#""bells": {"interval": 300}"#))
        #expect(interval.layers?.bells?.schedule == BellSchedule(interval: 300, length: 600))
        let neither = try Self.plan(Self.session(#""bells": {}"#))
        #expect(neither.layers?.bells?.schedule == BellSchedule(length: 600))
    }

    @Test func theDefaultsAreTheDocumentedOnes() throws {
        let request = try Self.plan(Self.session(#""bed": {"source": "brown"}, "bells": {"interval": 300}"#))
        let layers = try #require(request.layers)
        let bed = try #require(layers.bed)
        #expect(bed.url == BuiltInSound.brown.url)
        #expect(bed.level == 0.6 && bed.fadeIn == 5 && bed.fadeOut == 8 && bed.duckDecibels == -12)
        #expect(bed.attack == 0.5 && bed.release == 2 && bed.loopCrossfade == CrossfadeSpec(duration: 2))
        #expect(abs(bed.duckGain - 0.251_189) < 1e-5)
        let bells = try #require(layers.bells)
        #expect(bells.url == BuiltInSound.bowl.url)
        #expect(bells.level == 0.8 && bells.strikes == 1 && bells.strikeSpacing == 3)
        #expect(bells.schedule.start && bells.schedule.end)
        #expect(layers.length == 600)
    }

    @Test func layerSourcesAreBuiltInNamesOrFilesNeverTheNetwork() throws {
        let request = try Self.plan(Self.session(#""bed": {"source": " Pink "}, "bells": {"sound": "sounds/gong.wav"}"#))
        #expect(request.layers?.bed?.url == BuiltInSound.pink.url)
        #expect(request.layers?.bells?.url == URL(fileURLWithPath: "/sessions/sounds/gong.wav"))
        let absolute = try Self.plan(Self.session(#""bells": {"sound": "/usr/share/sounds/gong.wav"}"#))
        #expect(absolute.layers?.bells?.url == URL(fileURLWithPath: "/usr/share/sounds/gong.wav"))
        for remote in [#""bed": {"source": "https://example.org/rain.mp3"}"#, #""bells": {"sound": "http://example.org/gong.wav"}"#] {
            do {
                _ = try Self.plan(Self.session(remote))
                Issue.record("a network layer was accepted: \(remote)")
            } catch {
                #expect((error as? PlaybackError)?.code == .unsupportedFormat, "\(error)")
            }
        }
    }

    @Test func theEndBellIsAtTheSessionsLengthOrAbsentWhenALengthIsUnknown() throws {
        // 300 + 200 + 100 s, less two 10 s crossfades.
        let json = """
            {"crossfade": 10, "stages": [{"source": "a.flac"}, {"source": "b.flac", "voice": true}, {"source": "c.flac"}],
             "bells": {"interval": 120}}
            """
        let request = try Self.plan(json, sources: ["a.flac": 300, "b.flac": 200, "c.flac": 100])
        #expect(request.layers?.length == 580)
        #expect(request.layers?.bells?.schedule.length == 580)
        #expect(request.layers?.bells?.schedule.cue(after: 480) == BellCue(at: 580, kind: .end))
        #expect(request.items.map(\.isVoice) == [false, true, false])
        let unknown = try Self.plan(json, sources: ["a.flac": 300, "c.flac": 100], defaultLength: nil)
        #expect(unknown.layers?.length == nil)
        #expect(unknown.layers?.bells?.schedule.cue(after: 580) == BellCue(at: 600, kind: .interval))
    }

    @Test func aSessionWithoutLayersPlansNone() throws {
        let request = try Self.plan(#"{"stages": [{"source": "a.flac"}]}"#)
        #expect(request.layers == nil)
        #expect(request.items.map(\.isVoice) == [false])
    }
}
