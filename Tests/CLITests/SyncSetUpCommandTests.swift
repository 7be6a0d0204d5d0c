import Foundation
import PlayerCore
import Presentation
import TestProcesses
import Testing

/// `tonearm sync setup` through the binary on an account that already has devices, against a real
/// gpodder.net-API server (`GpodderAPIServer`) with gPodder's client library as the account's
/// phone (`GpodderClient`): without a terminal nothing is asked and a new library links with every
/// device and says so; `--link none` keeps its own subscriptions while the phone's place waits for
/// its episode; `--join` becomes the phone (and refuses a device the account does not have, and
/// `--link` with it); on a terminal the devices are listed, numbered, and the answer is followed.
@Suite("tonearm sync setup on an account with devices", .serialized, .blocking)
struct SyncSetUpCommandTests {
    static let user = "listener"
    static let password = "s3cret pass:word"

    /// One Tonearm library: its own XDG folders, the password in the environment.
    struct Library {
        let data: URL
        let config: URL
        let state: URL
        let cache: URL

        init(_ name: String) {
            let base = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-setup-\(name)-\(UUID().uuidString)")
            data = base.appendingPathComponent("data")
            config = base.appendingPathComponent("config")
            state = base.appendingPathComponent("state")
            cache = base.appendingPathComponent("cache")
        }

        var environment: [String: String] {
            [
                "XDG_CONFIG_HOME": config.path, "XDG_STATE_HOME": state.path, "XDG_CACHE_HOME": cache.path,
                "TONEARM_SYNC_PASSWORD": SyncSetUpCommandTests.password,
            ]
        }

        /// Runs the binary without a terminal (stdin and stdout are pipes).
        func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
            try CLITests.run(arguments, dataHome: data, environment: environment)
        }

        func object(_ arguments: [String]) throws -> [String: Any] {
            let r = try run(arguments)
            return try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any], "not a JSON object: \(r.out) \(r.err)")
        }

        func feeds() throws -> [String] {
            let r = try run(["podcast", "list", "--json"])
            return try LibraryCommandTests.json(r.out).compactMap { $0["feedURL"] as? String }
        }

        /// The podcast's episode with `guid`, as `podcast episodes --json` prints it.
        func episode(_ podcast: String, guid: String) throws -> [String: Any] {
            let r = try run(["podcast", "episodes", podcast, "--json"])
            #expect(r.status == 0, "\(r.err)")
            return try #require(try LibraryCommandTests.json(r.out).first { $0["guid"] as? String == guid }, "no \(guid): \(r.out)")
        }
    }

    /// The server with the account, a feed on loopback, and the phone (AntennaPod through
    /// gPodder's client library) subscribed to it and at 1:40 in its first episode.
    struct Account {
        let server: GpodderAPIServer
        let feeds: TestHTTPServer
        let phone: GpodderClient
        var url: String { server.baseURL.absoluteString }
        var feed: String { feeds.url("/show.xml").absoluteString }

        init() throws {
            server = try GpodderAPIServer()
            try server.register(username: SyncSetUpCommandTests.user, password: SyncSetUpCommandTests.password)
            feeds = try TestHTTPServer { request in
                guard request.path == "/show.xml" else { return .complete(status: 404, contentType: "text/plain", body: Data()) }
                return .complete(contentType: "application/rss+xml", body: SyncSetUpCommandTests.rss)
            }
            phone = GpodderClient(server, username: SyncSetUpCommandTests.user, password: SyncSetUpCommandTests.password, device: "phone")
            _ = try phone.updateDevice(caption: "AntennaPod", type: "mobile")
            _ = try phone.subscribe(add: [feed])
            _ = try phone.uploadActions([
                [
                    "podcast": feed, "episode": "https://cdn.example.org/show/1.mp3", "guid": "show-1", "action": "play",
                    "timestamp": SyncSetUpCommandTests.timestamp(Date().addingTimeInterval(-3600)),
                    "started": -1, "position": 100, "total": -1,
                ]
            ])
        }

        func stop() { feeds.stop() }

        /// The server's sync groups, as gPodder reads them.
        func groups() throws -> (synchronized: [Set<String>], notSynchronized: Set<String>) {
            let answer = try phone.syncDevices()
            let synchronized = (answer["synchronized"] as? [[String]] ?? []).map(Set.init)
            return (synchronized, Set(answer["not-synchronized"] as? [String] ?? []))
        }
    }

    /// Two hour-long episodes; the phone is in the first.
    static let rss = Data(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
        <channel><title>Phone Show</title><link>https://example.org/</link>
        <item><guid isPermaLink="false">show-1</guid><title>Show 1</title><pubDate>Mon, 02 Jun 2025 04:00:00 GMT</pubDate>
        <itunes:duration>1:00:00</itunes:duration><enclosure url="https://cdn.example.org/show/1.mp3" length="1000" type="audio/mpeg"/></item>
        <item><guid isPermaLink="false">show-2</guid><title>Show 2</title><pubDate>Tue, 03 Jun 2025 04:00:00 GMT</pubDate>
        <itunes:duration>1:00:00</itunes:duration><enclosure url="https://cdn.example.org/show/2.mp3" length="1000" type="audio/mpeg"/></item>
        </channel></rss>
        """.utf8)

    /// The API's timestamp: UTC, whole seconds, no zone.
    static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return formatter.string(from: date)
    }

    /// The device ids in "Linked with N devices (a, b)" of set-up's summary.
    static func linkedNames(_ out: String) -> Set<String>? {
        guard let line = out.split(separator: "\n").first(where: { $0.hasPrefix("Linked with ") }),
            let open = line.firstIndex(of: "("), let close = line[open...].firstIndex(of: ")")
        else { return nil }
        return Set(line[line.index(after: open)..<close].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
    }

    /// The line of `sync status` that starts with `prefix`, without it.
    static func statusLine(_ out: String, _ prefix: String) -> String? {
        out.split(separator: "\n").first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    /// Nothing SyncLinkPrompt would print.
    static func expectNoQuestion(_ out: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!out.contains("?") && !out.contains("[a]") && !out.contains("This account has"), "asked without a terminal:\n\(out)",
            sourceLocation: sourceLocation)
    }

    @Test func withoutATerminalANewLibraryLinksWithEveryDeviceWithoutAskingAndSaysSo() throws {
        let account = try Account()
        defer { account.stop() }

        // The laptop: the account's first Tonearm library; the phone is all the account has.
        let laptop = Library("laptop")
        var r = try laptop.run(["sync", "setup", account.url, Self.user, "--device", "laptop"])
        #expect(r.status == 0, "\(r.out) \(r.err)")
        #expect(r.out.contains("Linked with 1 device (phone), all the account has; 1 subscription and 1 place came over."), "\(r.out)")
        Self.expectNoQuestion(r.out)

        // A second computer, no flags: both devices, by default.
        let desktop = Library("desktop")
        r = try desktop.run(["sync", "setup", account.url, Self.user])
        #expect(r.status == 0, "\(r.out) \(r.err)")
        #expect(r.out.contains("Linked with 2 devices ("), "\(r.out)")
        #expect(r.out.contains("), all the account has; 1 subscription and 1 place came over."), "\(r.out)")
        #expect(Self.linkedNames(r.out) == ["laptop", "phone"], "\(r.out)")
        Self.expectNoQuestion(r.out)
        let name = try #require(r.out.firstMatch(of: /this library is device (tonearm-[0-9a-f]{8})\./)?.1, "\(r.out)")
        // Linked on the server too: one group of the three.
        let groups = try account.groups()
        #expect(groups.synchronized == [["laptop", "phone", String(name)]], "\(groups)")

        #expect(try desktop.feeds() == [account.feed])
        r = try desktop.run(["sync", "status"])
        let linked = try #require(Self.statusLine(r.out, "Linked with: "), "\(r.out)")
        #expect(Set(linked.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }) == ["laptop", "phone"], "\(r.out)")
        #expect(!r.out.contains("Waiting for episodes"), "\(r.out)")
        let episode = try desktop.episode("Phone Show", guid: "show-1")
        #expect(episode["position"] as? Double == 100 && episode["played"] as? Bool == false, "\(episode)")
        #expect(try desktop.episode("Phone Show", guid: "show-2")["position"] as? Double == 0)
    }

    @Test func linkNoneKeepsItsOwnSubscriptionsAndThePhonesPlaceWaitsForItsEpisode() throws {
        let account = try Account()
        defer { account.stop() }
        let desk = Library("desk")
        var r = try desk.run(["sync", "setup", account.url, Self.user, "--device", "desk", "--link", "none"])
        #expect(r.status == 0, "\(r.out) \(r.err)")
        #expect(
            r.out.contains("Not linked: this library keeps its own subscriptions (positions are shared); 0 subscriptions and 0 places came over."),
            "\(r.out)")
        #expect(r.out.contains("Places in 1 episode this library does not have yet"), "\(r.out)")
        #expect(try desk.feeds() == [], "not linked: the phone's subscriptions stay the phone's")
        #expect(try account.groups().synchronized.allSatisfy { !$0.contains("desk") })

        r = try desk.run(["sync", "status"])
        #expect(Self.statusLine(r.out, "Linked with: ") == "no other device (its own subscription list)", "\(r.out)")
        #expect(r.out.contains("Waiting for episodes to appear: 1 place from other devices"), "\(r.out)")
        var status = try desk.object(["sync", "status", "--json"])
        #expect(status["waitingForEpisodes"] as? Int == 1, "\(status)")
        #expect((status["account"] as? [String: Any])?["linkedDevices"] as? [String] == [], "\(status)")

        // Subscribed by hand: the episode comes with the phone's place.
        r = try desk.run(["podcast", "add", account.feed])
        #expect(r.status == 0, "\(r.out) \(r.err)")
        let episode = try desk.episode("Phone Show", guid: "show-1")
        #expect(episode["position"] as? Double == 100 && episode["played"] as? Bool == false, "\(episode)")
        status = try desk.object(["sync", "status", "--json"])
        #expect(status["waitingForEpisodes"] as? Int == 0, "\(status)")
        #expect(!(try desk.run(["sync", "status"]).out.contains("Waiting for episodes")))
    }

    @Test func joinBecomesThePhoneAndAnUnknownDeviceOrLinkWithJoinIsRefused() throws {
        let account = try Account()
        defer { account.stop() }
        let tablet = Library("tablet")
        var r = try tablet.run(["sync", "setup", account.url, Self.user, "--join", "phone"])
        #expect(r.status == 0, "\(r.out) \(r.err)")
        #expect(r.out.contains("this library is device phone."), "\(r.out)")
        #expect(r.out.contains("Joined device phone: 1 subscription and 1 place came over."), "\(r.out)")
        Self.expectNoQuestion(r.out)
        #expect(try tablet.feeds() == [account.feed])
        #expect(try tablet.episode("Phone Show", guid: "show-1")["position"] as? Double == 100)
        let status = try tablet.object(["sync", "status", "--json"])
        #expect((status["account"] as? [String: Any])?["device"] as? String == "phone", "\(status)")
        // No new device on the server, and the phone keeps its caption.
        let devices = try account.phone.getDevices()["devices"] as? [[String: Any]] ?? []
        #expect(devices.map { $0["id"] as? String } == ["phone"] && devices.first?["caption"] as? String == "AntennaPod", "\(devices)")

        // A device the account does not have: the typed error, and nothing kept.
        let other = Library("other")
        r = try other.run(["sync", "setup", account.url, Self.user, "--join", "nosuch"])
        #expect(r.status == 1, "\(r.out) \(r.err)")
        #expect(r.err.hasPrefix("tonearm: ") && r.err.contains("(the account has no device with that id)"), "\(r.err)")
        #expect(!r.out.contains("Sync set up"), "\(r.out)")
        #expect(try other.run(["sync", "status"]).out.hasPrefix("Sync is not set up"))

        // --link and --join together: the argument parser refuses before anything is asked.
        r = try other.run(["sync", "setup", account.url, Self.user, "--link", "all", "--join", "phone"])
        #expect(r.status != 0 && r.status != 1, "a usage error, not a failed set-up: \(r.status) \(r.out) \(r.err)")
        #expect(r.err.contains("--link and --join exclude each other"), "\(r.err)")
        #expect(try other.run(["sync", "status"]).out.hasPrefix("Sync is not set up"))
    }

    @Test func onATerminalTheDevicesAreListedNumberedAndTheAnswerIsFollowed() throws {
        let account = try Account()
        defer { account.stop() }
        _ = try GpodderClient(server: account.server, device: "tablet").updateDevice(caption: "gPodder", type: "desktop")

        /// Starts set-up in a terminal and waits (bounded) for the question; the pane's text then.
        func ask(_ library: Library, device: String) throws -> (terminal: TmuxSession, question: String) {
            var environment = library.environment
            environment["XDG_DATA_HOME"] = library.data.path
            environment["TERM"] = "xterm-256color"
            environment["LANG"] = "C.UTF-8"
            let terminal = try TmuxSession(
                [CLITests.binary.path, "sync", "setup", account.url, Self.user, "--device", device], width: 200, height: 30, environment: environment)
            let asked = try terminal.waitFor(timeout: 30) { screen in
                screen.split(separator: "\n").last { !$0.isEmpty }?.hasSuffix("[a]") == true || (try? terminal.paneIsDead()) == true
            }
            #expect(asked.matched && asked.screen.contains("keep it separate [n]?"), "no question:\n\(asked.screen)")
            return (terminal, asked.screen)
        }

        /// Answers and waits (bounded) for set-up to end; the pane's text then.
        func answer(_ terminal: TmuxSession, _ text: String) throws -> String {
            if !text.isEmpty { try terminal.sendText(text) }
            try terminal.send("Enter")
            let ended = try terminal.waitFor(timeout: 30) { _ in (try? terminal.paneIsDead()) == true }
            #expect(ended.matched, "set-up did not end:\n\(ended.screen)")
            return try terminal.capture()
        }

        /// The numbered device lines of the question: number -> line.
        func numbered(_ screen: String) -> [Int: String] {
            var lines: [Int: String] = [:]
            for line in screen.split(separator: "\n") {
                if let match = line.firstMatch(of: #/^  (\d+)\. (\S+) /#), let number = Int(match.1) { lines[number] = String(match.2) }
            }
            return lines
        }

        // Enter takes the default: linked with both devices.
        let desk1 = Library("desk1")
        let (first, firstQuestion) = try ask(desk1, device: "desk1")
        #expect(firstQuestion.contains("This account has 2 devices:"), "\(firstQuestion)")
        #expect(Set(numbered(firstQuestion).values) == ["phone", "tablet"] && Set(numbered(firstQuestion).keys) == [1, 2], "\(firstQuestion)")
        #expect(firstQuestion.contains("[1-2]"), "\(firstQuestion)")
        let linkedAll = try answer(first, "")
        #expect(linkedAll.contains("Linked with 2 devices ("), "\(linkedAll)")
        #expect(Self.linkedNames(linkedAll) == ["phone", "tablet"], "\(linkedAll)")
        #expect(linkedAll.contains("1 subscription and 1 place came over."), "\(linkedAll)")
        #expect(try desk1.feeds() == [account.feed])

        // desk2: three devices now, numbered; "n" keeps it separate.
        let desk2 = Library("desk2")
        let (second, question) = try ask(desk2, device: "desk2")
        #expect(question.contains("This account has 3 devices:"), "\(question)")
        let devices = numbered(question)
        #expect(Set(devices.keys) == [1, 2, 3] && Set(devices.values) == ["desk1", "phone", "tablet"], "\(question)")
        #expect(question.contains("[1-3]"), "\(question)")
        let separate = try answer(second, "n")
        #expect(separate.contains("Not linked: this library keeps its own subscriptions (positions are shared); 0 subscriptions"), "\(separate)")
        #expect(!separate.contains("Linked with"), "\(separate)")

        let r = try desk2.run(["sync", "status"])
        #expect(r.out.contains("this library: desk2"), "\(r.out)")
        #expect(Self.statusLine(r.out, "Linked with: ") == "no other device (its own subscription list)", "\(r.out)")
        #expect(r.out.contains("Waiting for episodes to appear: 1 place"), "positions are shared all the same: \(r.out)")
        #expect(try desk2.feeds() == [])
        #expect(try account.groups().synchronized.allSatisfy { !$0.contains("desk2") })
    }
}

extension GpodderClient {
    /// Another device of the test account.
    fileprivate init(server: GpodderAPIServer, device: String) {
        self.init(server, username: SyncSetUpCommandTests.user, password: SyncSetUpCommandTests.password, device: device)
    }
}
