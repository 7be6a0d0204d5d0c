import Foundation
import Testing

@testable import Library

/// The gpodder.net API's JSON as servers write it, and as Tonearm must never write it.
@Suite("gpodder API JSON")
struct GpodderWireTests {
    func actions(_ json: String) throws -> GpodderWire.EpisodeActions {
        try JSONDecoder().decode(GpodderWire.EpisodeActions.self, from: Data(json.utf8))
    }

    @Test(arguments: [
        ("2009-12-12T09:00:00", 1_260_608_400.0),
        ("2009-12-12T09:00:00Z", 1_260_608_400.0),
        ("2009-12-12T09:00:00.123Z", 1_260_608_400.123),
        ("2009-12-12T11:00:00+02:00", 1_260_608_400.0),
        ("2009-12-12 09:00:00", 1_260_608_400.0),
        ("12/12/2009", nil),
        ("1260608400", nil),
        ("", nil),
    ] as [(String, Double?)])
    func timestampsAreReadAsServersWriteThem(text: String, seconds: Double?) throws {
        let date = GpodderWire.date(text)
        if let seconds {
            #expect(abs(try #require(date).timeIntervalSince1970 - seconds) < 0.001)
        } else {
            #expect(date == nil)
        }
    }

    @Test func timestampsAreWrittenInTheAPIsOwnFormInUTC() {
        #expect(GpodderWire.timestampString(Date(timeIntervalSince1970: 1_260_608_400.9)) == "2009-12-12T09:00:00")
    }

    @Test func anActionListKeepsTheGoodOnesAndCountsTheRest() throws {
        let decoded = try actions("""
            {"timestamp": "1234", "actions": [
              {"podcast": "https://a.example/feed", "episode": "https://a.example/1.mp3", "action": "PLAY",
               "timestamp": "2024-01-01T00:00:00", "started": 10, "position": 20.7, "total": "3600"},
              {"podcast": "https://a.example/feed", "episode": "https://a.example/1.mp3", "action": "play",
               "timestamp": "2024-01-01T00:00:00", "started": 0, "position": -1, "total": 3600},
              {"podcast": "https://a.example/feed", "episode": "https://a.example/1.mp3", "action": "download",
               "timestamp": "2024-01-01T00:00:00", "position": 5},
              {"podcast": "https://a.example/feed", "action": "new", "timestamp": "2024-01-01T00:00:00"},
              17, null, "play",
              {"podcast": "https://a.example/feed", "episode": "https://a.example/2.mp3", "action": "delete",
               "timestamp": "2024-01-02T00:00:00", "guid": ""}
            ]}
            """)
        #expect(decoded.timestamp == 1234)
        // The play without a place, the new without an episode, and the three that are not actions.
        #expect(decoded.dropped == 5)
        #expect(decoded.actions.map(\.action) == [.play, .download, .delete])
        #expect(decoded.actions[0].position == 20)
        #expect(decoded.actions[0].total == 3600)
        #expect(decoded.actions[1].position == nil, "a download's numbers mean nothing and are not kept")
        #expect(decoded.actions[2].guid == nil)
    }

    /// AntennaPod writes -1 where it does not know a start or a length, and some clients leave
    /// them out: the place still counts; a place of -1 is no place.
    @Test func unknownStartsAndLengthsLeaveThePlaceStanding() throws {
        let decoded = try actions("""
            {"timestamp": 5, "actions": [
              {"podcast": "https://a.example/feed", "episode": "https://a.example/1.mp3", "action": "play",
               "timestamp": "2024-01-01T00:00:00", "started": -1, "position": 100, "total": -1},
              {"podcast": "https://a.example/feed", "episode": "https://a.example/2.mp3", "action": "play",
               "timestamp": "2024-01-01T00:00:00", "position": 60},
              {"podcast": "https://a.example/feed", "episode": "https://a.example/3.mp3", "action": "play",
               "timestamp": "2024-01-01T00:00:00", "started": 50, "position": 20, "total": 3600},
              {"podcast": "https://a.example/feed", "episode": "https://a.example/4.mp3", "action": "play",
               "timestamp": "2024-01-01T00:00:00", "started": 0, "position": 3602, "total": 3600},
              {"podcast": "https://a.example/feed", "episode": "https://a.example/5.mp3", "action": "play",
               "timestamp": "2024-01-01T00:00:00", "started": -1, "position": -1, "total": -1},
              {"podcast": "https://a.example/feed", "episode": "https://a.example/6.mp3", "action": "play",
               "timestamp": "2024-01-01T00:00:00", "started": 0, "total": 3600}
            ]}
            """)
        #expect(decoded.dropped == 2)
        let numbers = decoded.actions.map { [$0.started, $0.position, $0.total] }
        #expect(numbers == [[nil, 100, nil], [nil, 60, nil], [nil, 20, 3600], [0, 3600, 3600]])
        #expect(decoded.actions.allSatisfy { $0.isUsable })
    }

    @Test func devicesAndSyncGroupsAreReadAsTheAPIWritesThem() throws {
        let devices = try JSONDecoder().decode(
            GpodderWire.Devices.self,
            from: Data("""
                [{"id": "abcdef", "caption": "gPodder on my Laptop", "type": "laptop", "subscriptions": 27},
                 {"id": "phone-au", "caption": "Phone\\u001b[31m red", "type": "mobile", "subscriptions": "5"},
                 {"id": "../etc", "caption": "no"}, {"caption": "no id"}, 7,
                 {"id": "abcdef", "caption": "twice"}]
                """.utf8))
        #expect(devices.devices.map(\.id) == ["abcdef", "phone-au"])
        #expect(devices.devices[1].subscriptions == 5)
        #expect(!devices.devices[1].caption.contains("\u{1b}"), "a caption reaches a terminal without its escapes")
        let groups = try JSONDecoder().decode(
            GpodderWire.SyncGroups.self,
            from: Data(#"{"synchronized": [["notebook", "n900"], ["a", "b", "c"], 3], "not-synchronized": ["pc", 4, "x y"]}"#.utf8))
        #expect(groups.synchronized == [["notebook", "n900"], ["a", "b", "c"]])
        #expect(groups.notSynchronized == ["pc"])
        #expect(groups.linked(with: "b") == ["a", "c"])
        #expect(groups.linked(with: "pc").isEmpty)
        let update = try JSONSerialization.jsonObject(with: JSONEncoder().encode(GpodderWire.SyncGroupsUpdate(synchronize: [["a", "b"]])))
        #expect((update as? [String: Any])?["stop-synchronize"] as? [String] == [])
        #expect((update as? [String: Any])?["synchronize"] as? [[String]] == [["a", "b"]])
    }

    @Test func aSubscriptionListSkipsWhatIsNotAnAddress() throws {
        let changes = try JSONDecoder().decode(
            GpodderWire.SubscriptionChanges.self,
            from: Data(#"{"add": ["https://a.example/feed", "file:///etc/passwd", 3, " http://b.example/rss "], "timestamp": 7}"#.utf8))
        #expect(changes.add == ["https://a.example/feed", "http://b.example/rss"])
        #expect(changes.remove.isEmpty)
        #expect(changes.timestamp == 7)
    }

    @Test func anActionIsWrittenWithoutTheNumbersItDoesNotHave() throws {
        let action = GpodderWire.EpisodeAction(
            podcast: "https://a.example/feed", episode: "https://a.example/1.mp3", guid: nil, action: .download,
            timestamp: Date(timeIntervalSince1970: 0), device: "laptop")
        let object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(action)) as? [String: Any])
        #expect(Set(object.keys) == ["podcast", "episode", "action", "timestamp", "device"])
        #expect(object["timestamp"] as? String == "1970-01-01T00:00:00")
    }

    @Test func onlyPlayActionsWithAPlaceAreUsable() {
        func play(_ started: Int?, _ position: Int?, _ total: Int?) -> Bool {
            GpodderWire.EpisodeAction(
                podcast: "https://a.example/feed", episode: "https://a.example/1.mp3", guid: "g", action: .play, timestamp: .now,
                started: started, position: position, total: total
            ).isUsable
        }
        #expect(play(0, 10, 100))
        #expect(play(0, 100, 100))
        #expect(play(nil, 10, 100))
        #expect(play(nil, 10, nil))
        #expect(!play(nil, nil, 100))
        #expect(!play(-1, 10, 100))
        #expect(!play(0, -1, 100))
        #expect(!play(0, 10, 0))
        #expect(!play(20, 10, 100))
        #expect(!play(0, 101, 100))
    }
}
