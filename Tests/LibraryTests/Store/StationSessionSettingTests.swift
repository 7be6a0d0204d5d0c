import Foundation
import PlayerCore
import Testing

@testable import Library

@Suite("Library store: stations, sessions, settings")
struct StationSessionSettingTests {
    @Test func stationsHaveUniqueNamesIgnoringCase() throws {
        let temporary = try TemporaryDirectory()
        let clock = StoreTestClock()
        let store = try LibraryStore.open(directory: temporary.url, now: clock.function)
        let rock = try store.addStation(name: "  Радио\u{202E} Рок ", url: URL(string: "https://rock.example/live")!, genre: "Rock")
        #expect(rock.name == "Радио Рок")
        #expect(rock.genre == "Rock")
        #expect(rock.addedAt == clock.now)
        #expect(rock.station == Station(id: String(rock.id), name: "Радио Рок", url: URL(string: "https://rock.example/live")!, genre: "Rock"))
        let duplicate = playbackError { () throws(PlaybackError) in
            try store.addStation(name: "радио рок", url: URL(string: "https://other.example/live")!)
        }
        #expect(duplicate?.code == .alreadyInLibrary)
        let empty = playbackError { () throws(PlaybackError) in try store.addStation(name: "\u{7}\n ", url: URL(string: "https://x.example")!) }
        #expect(empty?.code == .malformedData)
        let jazz = try store.addStation(name: "jazz", url: URL(string: "https://jazz.example/live")!)
        #expect(try store.stations() == [jazz, rock])
    }

    @Test func stationsAreFoundByNameThenIdAndRemoved() throws {
        let temporary = try TemporaryDirectory()
        let store = try LibraryStore.open(directory: temporary.url)
        let first = try store.addStation(name: "Jazz FM", url: URL(string: "https://jazz.example/live")!)
        let second = try store.addStation(name: "Rock", url: URL(string: "https://rock.example/live")!)
        // A station named like another's id: the name wins (Radio 538).
        let numeric = try store.addStation(name: String(first.id), url: URL(string: "https://numbers.example/live")!)
        #expect(try store.station(named: "JAZZ fm") == first)
        #expect(try store.station(named: String(second.id)) == second)
        #expect(try store.station(named: String(first.id)) == numeric)
        #expect(playbackError { () throws(PlaybackError) in try store.station(named: "Jazz") }?.code == .notInLibrary)
        try store.removeStation(named: "jazz fm")
        #expect(try store.stations().map(\.id) == [numeric.id, second.id])
        #expect(playbackError { () throws(PlaybackError) in try store.removeStation(named: "Jazz FM") }?.code == .notInLibrary)
    }

    @Test func sessionsKeepTheirPathAndDocument() throws {
        let temporary = try TemporaryDirectory()
        let clock = StoreTestClock()
        let store = try LibraryStore.open(directory: temporary.url, now: clock.function)
        let json = #"{"name":"Morning","stages":[{"source":"a.ogg"},{"source":"b.opus"},{"source":"c.mp3"}]}"#
        let morning = try store.addSession(name: "Morning calm", path: "/srv/sessions/morning.json", json: json)
        #expect(morning.name == "Morning calm")
        #expect(morning.path == "/srv/sessions/morning.json")
        #expect(morning.stageCount == 3)
        #expect(morning.addedAt == clock.now)
        #expect(try store.sessionJSON(id: morning.id) == json)
        #expect(try store.session(named: "MORNING CALM") == morning)
        #expect(try store.session(named: String(morning.id)) == morning)
        #expect(try store.sessions() == [morning])

        func code(_ name: String, _ path: String, _ json: String) -> PlaybackError.Code? {
            playbackError { () throws(PlaybackError) in try store.addSession(name: name, path: path, json: json) }?.code
        }
        #expect(code("morning calm", "/x.json", json) == .alreadyInLibrary)
        #expect(code("Relative", "sessions/x.json", json) == .malformedData)
        #expect(code("Control", "/x\u{1B}.json", json) == .malformedData)
        #expect(code("Not JSON", "/x.json", "stages: 3") == .malformedData)
        #expect(code("No stages", "/x.json", #"{"stages":[]}"#) == .malformedData)
        #expect(code("Huge", "/x.json", String(repeating: " ", count: 2_000_000)) == .documentTooLarge)

        try store.removeSession(named: "Morning Calm")
        #expect(try store.sessions().isEmpty)
        #expect(playbackError { () throws(PlaybackError) in try store.session(named: "Morning calm") }?.code == .notInLibrary)
    }

    @Test func settingsAreSetReplacedRemovedAndKept() throws {
        let temporary = try TemporaryDirectory()
        do {
            let store = try LibraryStore.open(directory: temporary.url)
            #expect(try store.setting("output") == nil)
            try store.setSetting("output", "pulse")
            try store.setSetting("output", "wav\n/tmp/x")
            try store.setSetting("language", "ru")
            try store.setSetting("language", nil)
            #expect(playbackError { () throws(PlaybackError) in try store.setSetting(" ", "x") }?.code == .malformedData)
        }
        let reopened = try LibraryStore.open(directory: temporary.url)
        #expect(try reopened.setting("output") == "wav /tmp/x")
        #expect(try reopened.setting("language") == nil)
    }
}

@Suite("Library lookup rules")
struct LibraryLookupTests {
    private let candidates = [
        LibraryLookup.Candidate(id: 1, name: "News"), LibraryLookup.Candidate(id: 2, name: "News Daily"),
        LibraryLookup.Candidate(id: 3, name: "news"), LibraryLookup.Candidate(id: 12, name: "3"),
    ]

    @Test func podcastRulesGoIdThenExactThenPrefix() {
        #expect(LibraryLookup.podcast("3", among: candidates) == .found(3))  // id before title "3"
        #expect(LibraryLookup.podcast("12", among: candidates) == .found(12))
        #expect(LibraryLookup.podcast("NEWS", among: candidates) == .ambiguous([1, 3]))
        #expect(LibraryLookup.podcast("news d", among: candidates) == .found(2))
        #expect(LibraryLookup.podcast("ne", among: candidates) == .ambiguous([1, 2, 3]))
        #expect(LibraryLookup.podcast("\u{202E}", among: candidates) == .none)
        #expect(LibraryLookup.podcast("44", among: candidates) == .none)
    }

    @Test func namedRulesGoNameThenId() {
        #expect(LibraryLookup.named("3", among: candidates) == .found(12))  // name before id
        #expect(LibraryLookup.named("2", among: candidates) == .found(2))
        #expect(LibraryLookup.named("news", among: candidates) == .found(1))
        #expect(LibraryLookup.named("new", among: candidates) == .none)
    }
}
