import Foundation
import PlayerCore
import TestProcesses
import Testing

/// `tonearm sync` between two libraries through a loopback server of the gpodder.net API: set up
/// with the password from the environment or a private config file (never an argument), a
/// subscription made on one appears on the other, an episode heard to its end on one is played
/// on the other after the quiet sync that follows playback; the password and the user's name
/// never reach the log.
@Suite("tonearm sync", .serialized, .blocking)
struct SyncCommandTests {
    static func temporary(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-\(name)-\(UUID().uuidString)")
    }

    @Test func twoLibrariesShareSubscriptionsAndWhatWasHeard() throws {
        let sync = try GpodderServer(username: "marta.k", password: "horse battery staple")
        defer { sync.stop() }
        let audio = DownloadCommandTests.wav(seconds: 2)
        let feeds = try TestHTTPServer { request in
            guard request.path == "/feed" else { return .file(audio, for: request, contentType: "audio/wav") }
            let xml = """
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0"><channel><title>Shared Show</title>
                <item><guid>one</guid><title>First</title><enclosure url="/one.wav" type="audio/wav"/></item>
                </channel></rss>
                """
            return .complete(contentType: "application/rss+xml", body: Data(xml.utf8))
        }
        defer { feeds.stop() }
        let server = sync.baseURL.absoluteString
        let laptop = (data: Self.temporary("laptop-data"), config: Self.temporary("laptop-config"), state: Self.temporary("laptop-state"))
        let desktop = (data: Self.temporary("desktop-data"), config: Self.temporary("desktop-config"), state: Self.temporary("desktop-state"))
        func laptopRun(_ arguments: [String], password: String? = "horse battery staple") throws -> (status: Int32, out: String, err: String) {
            var environment = ["XDG_CONFIG_HOME": laptop.config.path, "XDG_STATE_HOME": laptop.state.path]
            environment["TONEARM_SYNC_PASSWORD"] = password
            return try CLITests.run(arguments, dataHome: laptop.data, environment: environment)
        }
        func desktopRun(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
            try CLITests.run(arguments, dataHome: desktop.data, environment: ["XDG_CONFIG_HOME": desktop.config.path, "XDG_STATE_HOME": desktop.state.path])
        }

        // No password anywhere, and a wrong one: refused, saying where the password goes.
        var r = try laptopRun(["sync", "setup", server, "marta.k"], password: nil)
        #expect(r.status == 1 && r.err.contains("TONEARM_SYNC_PASSWORD"), "\(r.err)")
        r = try laptopRun(["sync", "setup", server, "marta.k"], password: "wrong")
        #expect(r.status == 1, "\(r.out) \(r.err)")
        r = try laptopRun(["sync", "status"])
        #expect(r.out.hasPrefix("Sync is not set up"), "\(r.out)")

        r = try laptopRun(["podcast", "add", feeds.url("/feed").absoluteString])
        #expect(r.status == 0, "\(r.err)")
        r = try laptopRun(["sync", "setup", server, "marta.k", "--device", "laptop"])
        #expect(r.status == 0 && r.out.contains("this library is device laptop"), "\(r.out) \(r.err)")
        #expect(sync.subscriptions == [feeds.url("/feed").absoluteString], "set-up's first sync sent the subscription")
        r = try laptopRun(["sync", "now"])
        #expect(r.status == 0 && r.out.contains("0 subscription changes") && r.out.contains("Nothing new"), "\(r.out) \(r.err)")

        // The desktop keeps its password in config.toml: refused while others can read the file.
        try FileManager.default.createDirectory(at: desktop.config.appendingPathComponent("tonearm"), withIntermediateDirectories: true)
        let config = desktop.config.appendingPathComponent("tonearm/config.toml")
        try Data("[sync]\npassword = \"horse battery staple\"\n".utf8).write(to: config)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: config.path)
        r = try desktopRun(["sync", "setup", server, "marta.k", "--device", "desktop"])
        #expect(r.status == 1 && r.err.contains("chmod 600"), "\(r.err)")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: config.path)
        r = try desktopRun(["sync", "setup", server, "marta.k", "--device", "desktop"])
        #expect(r.status == 0 && r.out.contains("shares subscriptions between all devices; 1 subscription and 0 places came over"), "\(r.out) \(r.err)")
        r = try desktopRun(["sync", "now", "--json"])
        #expect(r.status == 0, "\(r.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        #expect(report["subscribed"] as? Int == 0 && report["fullSync"] as? Bool == false, "\(r.out)")
        let podcasts = try LibraryCommandTests.json(try desktopRun(["podcast", "list", "--json"]).out)
        #expect(podcasts.map { $0["title"] as? String } == ["Shared Show"])

        // Heard to its end on the laptop: the quiet sync after playback sends it.
        let episodes = try LibraryCommandTests.json(try laptopRun(["podcast", "episodes", "Shared Show", "--json"]).out)
        let id = try #require(episodes.first?["id"] as? Int)
        let played = try PlaybackCommandTests.run(
            ["play", "--episode", "\(id)", "--output", "null", "--fast", "--events", "jsonl"],
            environment: [
                "XDG_DATA_HOME": laptop.data.path, "XDG_CONFIG_HOME": laptop.config.path, "XDG_STATE_HOME": laptop.state.path,
                "TONEARM_SYNC_PASSWORD": "horse battery staple",
            ])
        #expect(played.status == 0, "\(played.err)")
        #expect(sync.actions.last?["action"] as? String == "play" && sync.actions.last?["device"] as? String == "laptop", "\(sync.actions)")
        r = try desktopRun(["sync", "now", "--log-level", "debug"])
        #expect(r.out.contains("1 applied"), "\(r.out)")
        let onDesktop = try LibraryCommandTests.json(try desktopRun(["podcast", "episodes", "Shared Show", "--json"]).out)
        #expect(onDesktop.first?["played"] as? Bool == true, "\(onDesktop)")

        r = try laptopRun(["sync", "status", "--json"])
        let status = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        #expect(status["waitingActions"] as? Int == 0 && (status["account"] as? [String: Any])?["device"] as? String == "laptop", "\(r.out)")

        // Neither the password nor the user's name is in either log, even at debug level.
        for state in [laptop.state, desktop.state] {
            let log = try String(contentsOf: state.appendingPathComponent("tonearm/tonearm.log"), encoding: .utf8)
            #expect(!log.contains("horse battery") && !log.contains("marta.k"), "\(log)")
        }
        let desktopLog = try String(contentsOf: desktop.state.appendingPathComponent("tonearm/tonearm.log"), encoding: .utf8)
        #expect(desktopLog.contains("sync done") && desktopLog.contains("operation=syncEpisodeActions"), "\(desktopLog)")

        r = try laptopRun(["sync", "forget"])
        #expect(r.status == 0)
        #expect(try laptopRun(["sync", "status"]).out.hasPrefix("Sync is not set up"))
    }
}
