import Foundation
import TestProcesses
import Testing

/// The client-to-client messages (`subscribe`, `unsubscribe`, `channels`, `readmessages`,
/// `sendmessage`, `idle message`, `idle subscription`) and `config`: the same sequence of two
/// clients sent to mpd 0.23.12 and to `tonearm serve`, answered alike to the byte; and the real
/// `mpc` passing a message from one of its processes to another through `tonearm serve`.
@Suite("MPD messages: tonearm serve compared with mpd", .serialized, .blocking)
struct MPDMessageComparisonTests {
    /// One step: which of the two clients sends, and what. `sendOnly` sends without reading the
    /// answer (an `idle` that waits); `answer` reads what that client was answered since.
    enum Step {
        case command(Int, String)
        case sendOnly(Int, String)
        case answer(Int)
    }

    static let steps: [Step] = [
        .command(0, "channels"),
        .command(0, "subscribe news"),
        .command(0, "subscribe news"),
        .command(0, "subscribe a/b"),
        .command(0, "subscribe \"\""),
        .command(1, "channels"),
        .command(1, "unsubscribe news"),
        .command(1, "sendmessage nobody hi"),
        .command(1, "sendmessage \"bad ch\" hi"),
        .command(1, "sendmessage onlyone"),
        .command(1, "subscribe"),
        .command(1, "readmessages"),
        // The subscriber waits; a message wakes it.
        .command(0, "readmessages"),
        .sendOnly(0, "idle message"),
        .command(1, "sendmessage news \"hello world\""),
        .answer(0),
        .command(1, "sendmessage news second"),
        .command(0, "readmessages"),
        .command(0, "readmessages"),
        // Every client hears of a change of the channels.
        .command(1, "idle subscription"),
        .sendOnly(1, "idle subscription"),
        .command(0, "subscribe other:chan.1_x-y"),
        .answer(1),
        .command(1, "channels"),
        .command(1, "subscribe news"),
        .command(0, "sendmessage news both"),
        .command(0, "readmessages"),
        .command(1, "readmessages"),
        .command(0, "unsubscribe news"),
        .command(0, "unsubscribe news"),
        .command(0, "channels"),
        // In a command list, in order, the failure stopping it.
        .command(0, "command_list_ok_begin\nsubscribe list\nsendmessage list one\nreadmessages\nsendmessage gone two\nchannels\ncommand_list_end"),
        // Sixteen channels at most.
        .command(0, (0..<14).map { "subscribe c\($0)" }.joined(separator: "\n")),
        .command(0, "subscribe c14"),
        .command(0, "subscribe c15"),
        .command(0, "subscribe c16"),
        .command(0, "subscribe news"),
        // Sixty-four unread messages at most: the sixty-fifth finds nobody.
        .command(1, (0..<63).map { "sendmessage c3 m\($0)" }.joined(separator: "\n")),
        .command(1, "sendmessage c3 m63"),
        .command(1, "sendmessage c3 m64"),
        .command(0, "readmessages"),
        // The remote client may not read the configuration.
        .command(1, "config"),
    ]

    /// Runs the steps on two connections and returns every line each answer had, in order.
    static func transcript(connect: () throws -> MPDLineClient) throws -> [String] {
        let clients = [try connect(), try connect()]
        var lines: [String] = []
        for step in steps {
            switch step {
            case .command(let who, let text):
                try clients[who].send(text)
                // A group of lines (several commands, or one list) is answered once per line
                // outside a list, once for a whole list.
                let answers = text.hasPrefix("command_list") ? 1 : text.split(separator: "\n").count
                for _ in 0..<answers { lines += try read(clients[who], "\(who)> \(text.prefix(40))") }
            case .sendOnly(let who, let text):
                try clients[who].send(text)
            case .answer(let who):
                lines += try read(clients[who], "\(who) answered")
            }
        }
        return lines
    }

    /// The port the daemon chose for `--mpd 127.0.0.1:0`, as its `daemon.json` tells it.
    static func tcpPort(of daemon: ServeDaemon) throws -> Int {
        let info = try String(contentsOf: daemon.runtime.appendingPathComponent("tonearm/daemon.json"), encoding: .utf8)
        return try #require(info.firstMatch(of: /127\.0\.0\.1:(\d+)/).flatMap { Int($0.1) })
    }

    /// One whole answer, up to its `OK` or `ACK`, each line labelled with what asked for it.
    static func read(_ client: MPDLineClient, _ label: String) throws -> [String] {
        var lines: [String] = []
        while true {
            let line = try client.readLine()
            lines.append("\(label): \(line)")
            if line == "OK" || line.hasPrefix("ACK ") { return lines }
        }
    }

    @Test func everyMessageAnswerIsMPDs() throws {
        let mpd = try MPDDaemonProcess { music in
            try FileManager.default.createDirectory(atPath: "\(music)/empty", withIntermediateDirectories: true)
        }
        defer { mpd.stop() }
        let music = URL(fileURLWithPath: mpd.musicDirectory)
        let daemon = try ServeDaemon(["--mpd", "127.0.0.1:0"], music: music)
        let tcpPort = try Self.tcpPort(of: daemon)
        let theirs = try Self.transcript { try MPDLineClient("127.0.0.1:\(mpd.port)") }
        let mine = try Self.transcript { try MPDLineClient("127.0.0.1:\(tcpPort)") }
        #expect(theirs.count == mine.count, "mpd answered \(theirs.count) lines, tonearm \(mine.count)\n\(daemon.logTail)")
        for (a, b) in zip(theirs, mine) where a != b {
            Issue.record("mpd:     \(a)\ntonearm: \(b)")
        }
        #expect(theirs.contains("1> config: ACK [4@0] {config} Command only permitted to local clients"))
    }

    /// `config` answers on the local socket with the music directory, as mpd's does there.
    @Test func configTellsTheMusicDirectoryOnlyOnTheLocalSocket() throws {
        let music = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: music) }
        let daemon = try ServeDaemon(["--mpd", "127.0.0.1:0"], music: music)
        let tcpPort = try Self.tcpPort(of: daemon)
        let local = try daemon.client().command("config")
        #expect(local.ack == nil, "\(local.ack ?? "")")
        #expect(local.fields.map(\.key) == ["music_directory"])
        #expect(local.fields.first.map { URL(fileURLWithPath: $0.value).resolvingSymlinksInPath().path } == music.resolvingSymlinksInPath().path)
        let remote = try MPDLineClient("127.0.0.1:\(tcpPort)").command("config")
        #expect(remote.ack == "ACK [4@0] {config} Command only permitted to local clients")
        #expect(remote.fields.isEmpty)
    }

    /// One `mpc waitmessage` waits on a channel, another `mpc` sends to it, and the waiting one
    /// prints the message and ends; `mpc channels` shows the channel only while it is listened to.
    @Test func mpcPassesAMessageBetweenTwoConnections() throws {
        let music = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-messages-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: music) }
        let daemon = try ServeDaemon(music: music)
        let out = daemon.home.appendingPathComponent("waitmessage.out").path
        let waiting = try ChildProcess(
            "/usr/bin/mpc", ["-h", daemon.socket, "waitmessage", "news"], environment: ProcessInfo.processInfo.environment, stdout: out,
            stderr: out)
        defer {
            if waiting.exitStatus == nil { waiting.send(SIGKILL) }
        }
        #expect(eventuallyBlocking(timeout: 15) { (try? daemon.mpc("channels").out) == "news\n" }, "\(daemon.logTail)")
        let sent = try daemon.mpc("sendmessage", "news", "hello from mpc")
        #expect(sent.status == 0, "\(sent.out)")
        #expect(waiting.wait(timeout: 15) == 0)
        #expect((try? String(contentsOfFile: out, encoding: .utf8)) == "hello from mpc\n")
        #expect(eventuallyBlocking(timeout: 15) { (try? daemon.mpc("channels").out) == "" })
        let unheard = try daemon.mpc("sendmessage", "news", "nobody hears this")
        #expect(unheard.status != 0)
        #expect(unheard.out.contains("nobody is subscribed to this channel"), "\(unheard.out)")
    }
}
