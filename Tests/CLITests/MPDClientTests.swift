import Foundation
import TestProcesses
import Testing

/// `tonearm serve` driven by the real `mpc`, every verb a listener's script uses, with what the
/// daemon then says read back from its own `status` (and its Tonearm keys).
@Suite("tonearm serve with mpc", .serialized, .blocking)
struct MPDClientTests {
    /// A music directory with three 30 s tones, `first`, `second` and `third`, in `Album/`.
    static func music() throws -> URL {
        let (dir, tone) = try PlaybackCommandTests.tone(seconds: 30)
        let album = dir.appendingPathComponent("Album")
        try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
        for name in ["first", "second", "third"] { try FileManager.default.copyItem(at: tone, to: album.appendingPathComponent("\(name).flac")) }
        try FileManager.default.removeItem(at: tone)
        return dir
    }

    func waitFor(_ client: MPDLineClient, _ key: String, _ expected: String, timeout: Double = 15) throws -> Bool {
        eventuallyBlocking(timeout: timeout) { (try? client.status()[key]) == expected }
    }

    @Test func everyPlaybackVerb() throws {
        let music = try Self.music()
        defer { try? FileManager.default.removeItem(at: music) }
        let daemon = try ServeDaemon(music: music)
        let client = try daemon.client()

        #expect(try daemon.mpc("ls").out.split(separator: "\n") == ["Stations", "Podcasts", "Sessions", "Music"])
        #expect(try daemon.mpc("ls", "Music/Album").out.contains("Music/Album/second.flac"))
        #expect(try daemon.mpc("add", "Music/Album").status == 0)
        #expect(try daemon.mpc("playlist").out.split(separator: "\n") == ["first", "second", "third"])

        let play = try daemon.mpc("play")
        // (What the daemon said and its status then, should mpc not have seen it playing.)
        #expect(play.out.contains("[playing] #1/3"), "\(play.out) status: \(String(describing: try? client.status())) stderr: \(daemon.stderr) log: \(daemon.logTail)")
        #expect(try waitFor(client, "tonearm_state", "playing"))
        #expect(try daemon.mpc("current").out.trimmingCharacters(in: .whitespacesAndNewlines) == "first")

        // (What mpc printed, the status after it and the daemon's log, should it not say paused.)
        let pause = try daemon.mpc("pause")
        #expect(pause.out.contains("[paused]"), "\(pause.out) (exit \(pause.status)) status: \(String(describing: try? client.status())) log: \(daemon.logTail)")
        #expect(try client.status()["state"] == "pause")
        let resume = try daemon.mpc("play")
        #expect(resume.out.contains("[playing]"), "\(resume.out) status: \(String(describing: try? client.status())) log: \(daemon.logTail)")
        #expect(try waitFor(client, "tonearm_state", "playing"))

        #expect(try daemon.mpc("next").status == 0)
        #expect(try waitFor(client, "song", "1"))
        #expect(try waitFor(client, "tonearm_state", "playing"))
        #expect(try daemon.mpc("prev").status == 0)
        #expect(try waitFor(client, "song", "0"))
        #expect(try waitFor(client, "tonearm_state", "playing"))

        #expect(try daemon.mpc("seek", "20").status == 0)
        #expect(eventuallyBlocking(timeout: 15) { (Double((try? client.status()["elapsed"]) ?? "") ?? 0) >= 20 })

        #expect(try daemon.mpc("volume", "40").status == 0)
        #expect(try client.status()["volume"] == "40")
        #expect(try daemon.mpc("volume", "+10").status == 0)
        #expect(try client.status()["volume"] == "50")

        #expect(try daemon.mpc("crossfade", "3").status == 0)
        #expect(try daemon.mpc("crossfade").out.contains("crossfade: 3"))
        for option in ["random", "repeat", "single", "consume"] {
            #expect(try daemon.mpc(option, "on").status == 0)
            #expect(try client.status()[option] == "1", "\(option)")
            #expect(try daemon.mpc(option, "off").status == 0)
            #expect(try client.status()[option] == "0", "\(option)")
        }

        #expect(try daemon.mpc("stop").out.contains("volume"))
        #expect(try waitFor(client, "state", "stop"))
        #expect(try daemon.mpc("stop").status == 0)
        #expect(try daemon.mpc("version").out.contains("mpd version: 0."))
    }

    /// `status` right after a command tells what the command did, however the daemon's reading
    /// of the player's updates interleaves with it: five hundred pauses and resumes, each followed
    /// at once by `status` on the same connection, as `mpc` does. (A status that copied its view
    /// before asking the player, with an update applied in between, told the state before the
    /// command about once in a hundred.)
    @Test func statusRightAfterEachPauseAndResumeTellsWhatItDid() throws {
        let music = try Self.music()
        defer { try? FileManager.default.removeItem(at: music) }
        let daemon = try ServeDaemon(music: music)
        let client = try daemon.client()
        #expect(try client.command("add \"Music/Album/first.flac\"").ack == nil)
        #expect(try client.command("play").ack == nil)
        #expect(try waitFor(client, "tonearm_state", "playing"))
        var told: [String] = []
        for round in 0..<500 {
            let pausing = round.isMultiple(of: 2)
            #expect(try client.command(pausing ? "pause 1" : "pause 0").ack == nil)
            let state = try client.value("status", "state") ?? "none"
            if state != (pausing ? "pause" : "play") { told.append("round \(round): \(state)") }
        }
        #expect(told.isEmpty, "\(told)")
        #expect(daemon.stop() == 0)
    }

    @Test func everyQueueVerbAndIdle() throws {
        let music = try Self.music()
        defer { try? FileManager.default.removeItem(at: music) }
        let daemon = try ServeDaemon(music: music)
        let client = try daemon.client()

        #expect(try daemon.mpc("add", "Music/Album/first.flac").status == 0)
        #expect(try daemon.mpc("add", "Music/Album/second.flac").status == 0)
        #expect(try daemon.mpc("add", "Music/Album/third.flac").status == 0)
        #expect(try daemon.mpc("move", "3", "1").status == 0)
        #expect(try daemon.mpc("playlist").out.split(separator: "\n") == ["third", "first", "second"])
        #expect(try daemon.mpc("del", "2").status == 0)
        #expect(try daemon.mpc("playlist").out.split(separator: "\n") == ["third", "second"])
        #expect(try daemon.mpc("play", "2").status == 0)
        #expect(try waitFor(client, "tonearm_state", "playing"))
        #expect(try daemon.mpc("current").out.hasPrefix("second"))
        // insert puts a song right after the one playing.
        #expect(try daemon.mpc("insert", "Music/Album/first.flac").status == 0)
        #expect(try daemon.mpc("playlist").out.split(separator: "\n") == ["third", "second", "first"])
        #expect(try client.status()["nextsong"] == "2")
        #expect(try daemon.mpc("queued").out.hasPrefix("first"))
        // A missing song is the client's error, told as MPD tells it.
        let missing = try daemon.mpc("add", "Music/Album/none.flac")
        #expect(missing.status != 0)
        #expect(missing.out.contains("No such song"), "\(missing.out)")
        let escape = try daemon.mpc("add", "Music/../../etc/passwd")
        #expect(escape.status != 0)

        // idle waits for the change a second client makes.
        let idle = Process()
        idle.executableURL = URL(fileURLWithPath: "/usr/bin/mpc")
        idle.arguments = ["-h", daemon.socket, "idle", "mixer"]
        let out = Pipe()
        idle.standardOutput = out
        try idle.run()
        #expect(eventuallyBlocking(timeout: 10) { (try? client.command("volume +5").ack) == .some(nil) && !idle.isRunning })
        let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        idle.waitUntilExit()
        #expect(said.trimmingCharacters(in: .whitespacesAndNewlines) == "mixer")

        #expect(try daemon.mpc("outputs").out.contains("is enabled"))
        #expect(try daemon.mpc("stats").out.contains("Uptime:"))
        #expect(try daemon.mpc("clear").status == 0)
        #expect(try daemon.mpc("playlist").out.isEmpty)
        #expect(try waitFor(client, "state", "stop"))
        #expect(daemon.stop() == 0)
    }

    /// A session with a bell between two songs: it starts when the first has ended, with its
    /// layers told in `status` as they go, closes, and the queue goes on to the song after it.
    @Test func aSessionWithLayersPlaysWithThemAndTheQueueGoesOnAfterIt() throws {
        let music = try Self.music()
        defer { try? FileManager.default.removeItem(at: music) }
        let home = ServeDaemon.newHome()
        let bell = try TimerCommandTests.bell(in: music)
        let kept = try PlaybackCommandTests.run(
            ["timer", "3s", "--bell", bell.path, "--save", "Sit", "--output", "null", "--fast"],
            environment: ["XDG_DATA_HOME": home.appendingPathComponent("data").path])
        #expect(kept.status == 0, "stderr: \(kept.err)")
        let daemon = try ServeDaemon(music: music, home: home)
        let client = try daemon.client()
        for song in ["Music/Album/first.flac", "Sessions/Sit", "Music/Album/second.flac"] {
            #expect(try daemon.mpc("add", song).status == 0, "\(song)")
        }
        #expect(try daemon.mpc("play").status == 0)
        #expect(try waitFor(client, "tonearm_state", "playing"))
        #expect(try client.status()["tonearm_bells_rung"] == nil, "a song has no layers")
        #expect(try daemon.mpc("seek", "28").status == 0)

        // The session, with its layers: the start bell rung, the end bell next (3 s on its clock).
        let inTheSession: ([String: String]) -> Bool = { status in
            status["song"] == "1" && status["tonearm_bells_rung"] == "1" && status["tonearm_next_bell_kind"] == "end"
        }
        #expect(eventuallyBlocking(timeout: 15) { (try? client.status()).map(inTheSession) ?? false })
        let during = try client.status()
        #expect(during["tonearm_next_bell"] == "3.0", "\(during)")
        #expect(during["tonearm_session_remaining"] != nil, "\(during)")

        // Then the song after it, without the session's layers.
        #expect(try waitFor(client, "song", "2"))
        #expect(try waitFor(client, "tonearm_state", "playing"))
        #expect(try client.status()["tonearm_bells_rung"] == nil)
        #expect(daemon.stop() == 0)
    }

    @Test func aURLPlaysAsAStreamAndItsDropIsAReconnectNotAStop() throws {
        let icecast = try IcecastServer()
        defer { icecast.stop() }
        try icecast.startSource()
        let music = try Self.music()
        defer { try? FileManager.default.removeItem(at: music) }
        let daemon = try ServeDaemon(music: music)
        let client = try daemon.client()
        #expect(try daemon.mpc("add", icecast.streamURL.absoluteString).status == 0)
        #expect(try daemon.mpc("play").status == 0)
        #expect(try waitFor(client, "tonearm_state", "playing", timeout: 30))
        try icecast.stopSource()
        // The status that shows the reconnect is the one read: on a busy machine the next attempt
        // (preparing, with no error field) may have begun by a second `status`.
        var seen: [String: String]?
        #expect(eventuallyBlocking(timeout: 30) {
            seen = try? client.status()
            return seen?["tonearm_state"] == "reconnecting"
        })
        let status = seen ?? [:]
        #expect(status["state"] == "play")
        #expect(status["tonearm_reconnect_attempt"] != nil)
        #expect(status["error"]?.isEmpty == false)
        #expect(status["tonearm_error_retry"] == "automatic")
        try icecast.startSource()
        #expect(try waitFor(client, "tonearm_state", "playing", timeout: 60))
        #expect(try client.command("clearerror").ack == nil)
        #expect(try client.status()["error"] == nil)
    }

    @Test func aMalformedLineIsAnAckAndTheConnectionLivesOn() throws {
        let music = try Self.music()
        defer { try? FileManager.default.removeItem(at: music) }
        let daemon = try ServeDaemon(music: music)
        let client = try daemon.client()
        #expect(try client.command("play \"unterminated").ack?.hasPrefix("ACK [") == true)
        #expect(try client.command("nosuchcommand").ack?.contains("unknown command") == true)
        #expect(try client.command("seek x y").ack?.hasPrefix("ACK [2@0]") == true)
        #expect(try client.command("ping").ack == nil)
        let commands = try client.command("commands").fields.map(\.value)
        let not = try client.command("notcommands").fields.map(\.value)
        #expect(commands.contains("plchanges") && commands.contains("idle") && !commands.contains("partition"))
        #expect(Set(commands).isDisjoint(with: not))
    }

    @Test func anAddressOffThisMachineNeedsAPasswordAndTheOutputsAreListed() throws {
        let music = try MPDClientTests.music()
        defer { try? FileManager.default.removeItem(at: music) }
        let refused = try ServeDaemon(["--mpd", "0.0.0.0:6600"], music: music, waitForSocket: false)
        // It refuses before it starts anything: it ends by itself.
        #expect(eventuallyBlocking(timeout: 30) { !refused.process.isRunning })
        #expect(refused.stop() != 0)
        #expect(refused.stderr.contains("password"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: refused.socket))

        let fifo = music.appendingPathComponent("visualiser.fifo").path
        let daemon = try ServeDaemon(["--mpd", "127.0.0.1:0", "--also-output", "fifo:\(fifo)"], music: music)
        let outputs = try daemon.mpc("outputs").out
        #expect(outputs.contains("Output 1 (null output) is enabled"), "\(outputs)")
        #expect(outputs.contains("Output 2 (FIFO \(fifo)) is enabled"), "\(outputs)")
        // The network address asks no password on loopback, and is told in daemon.json.
        let info = try String(contentsOf: daemon.runtime.appendingPathComponent("tonearm/daemon.json"), encoding: .utf8)
        let port = try #require(info.firstMatch(of: /127\.0\.0\.1:(\d+)/).flatMap { Int($0.1) })
        #expect(try ServeDaemon.mpc(host: "127.0.0.1", port: port, ["status"]).status == 0)
    }
}
