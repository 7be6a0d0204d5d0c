import Foundation
import TestProcesses
import Testing

/// The harness of the sync tests against a real gpodder.net server (`GpodderAPIServer`) and gPodder's
/// client library (`GpodderClient`): that the server starts and takes an account, and that what one
/// device sends another device of its sync group reads back, -1 and guid included.
@Suite("The gpodder.net server and gPodder client harness", .blocking)
struct GpodderAPIServerTests {
    static let feed = "http://feeds.example.com/show.xml"
    static let episode = "http://cdn.example.com/show/1.mp3"

    @Test func whatThePhoneSendsTheTabletOfItsGroupReads() throws {
        let server = try GpodderAPIServer()
        try server.register(username: "alice", password: "secret")
        let phone = GpodderClient(server, username: "alice", password: "secret", device: "phone")
        let tablet = GpodderClient(server, username: "alice", password: "secret", device: "tablet")

        _ = try phone.updateDevice(caption: "Phone", type: "mobile")
        _ = try phone.subscribe(add: [Self.feed])
        _ = try phone.uploadActions([
            [
                "podcast": Self.feed, "episode": Self.episode, "guid": "show-1", "action": "play", "timestamp": "2026-11-28T10:00:00",
                "started": -1, "position": 120, "total": 3600,
            ]
        ])

        _ = try tablet.updateDevice(caption: "Tablet", type: "mobile")
        let groups = try tablet.syncDevices(synchronize: [["phone", "tablet"]])
        #expect(groups["synchronized"] as? [[String]] == [["phone", "tablet"]], "\(groups)")

        let pulled = try tablet.pullSubscriptions(since: 0)
        #expect(pulled["add"] as? [String] == [Self.feed], "\(pulled)")
        #expect(pulled["timestamp"] as? Int != nil, "\(pulled)")

        let downloaded = try tablet.downloadActions(since: 0)
        let actions = downloaded["actions"] as? [[String: Any]] ?? []
        #expect(actions.count == 1, "\(downloaded)")
        let action = try #require(actions.first)
        #expect(action["episode"] as? String == Self.episode)
        #expect(action["guid"] as? String == "show-1")
        #expect(action["device"] as? String == "phone")
        #expect(action["action"] as? String == "play")
        #expect(action["timestamp"] as? String == "2026-11-28T10:00:00")
        #expect(action["started"] as? Int == -1)
        #expect(action["position"] as? Int == 120)
        #expect(action["total"] as? Int == 3600)
    }

    @Test func refusalsReachTheTestAsErrors() throws {
        let server = try GpodderAPIServer()
        try server.register(username: "bob", password: "secret")
        #expect(throws: GpodderAPIServer.Failure.self) { try server.register(username: "bob", password: "other") }
        let intruder = GpodderClient(server, username: "bob", password: "wrong", device: "phone")
        let error = #expect(throws: GpodderAPIServer.Failure.self) { try intruder.getDevices() }
        #expect(error?.description.contains("Unauthorized") == true, "\(error.map { "\($0)" } ?? "")")
        let devices = try GpodderClient(server, username: "bob", password: "secret", device: "phone").getDevices()
        #expect((devices["devices"] as? [Any])?.isEmpty == true, "no call has made a device yet: \(devices)")
    }
}
