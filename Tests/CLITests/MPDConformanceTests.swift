import Foundation
import TestProcesses
import Testing

/// `tonearm serve` answers as mpd 0.23 answers: the same session sent to a real mpd and to
/// Tonearm on the same music, answer by answer. An error is compared by its whole `ACK` line
/// (code, command and words), a success by the values of the fields named; a path is compared
/// without Tonearm's `Music/` folder. What Tonearm does differently on purpose (docs/USAGE.md,
/// "Where Tonearm differs from mpd") is checked against Tonearm alone.
@Suite("tonearm serve conforms to mpd 0.23", .serialized, .blocking)
struct MPDConformanceTests {
    /// mpd and `tonearm serve` on the same three 30 s songs (`Album/first.flac`, `second`,
    /// `third`), each with a client.
    final class Servers: @unchecked Sendable {
        let tones: URL
        let mpd: MPDDaemonProcess
        let daemon: ServeDaemon
        let real: MPDLineClient
        let ours: MPDLineClient

        init(_ extra: [String] = []) throws {
            let tones = try MPDClientTests.music()
            self.tones = tones
            mpd = try MPDDaemonProcess { music in
                try FileManager.default.copyItem(at: tones.appendingPathComponent("Album"), to: URL(fileURLWithPath: music).appendingPathComponent("Album"))
            }
            real = try MPDLineClient("127.0.0.1:\(mpd.port)")
            _ = try mpd.updatedClient()
            try #require((try real.command("listall").fields.filter { $0.key == "file" }.count) == 3)
            daemon = try ServeDaemon(extra, music: URL(fileURLWithPath: mpd.musicDirectory))
            ours = try daemon.client()
        }

        /// A new connection to each.
        func connect() throws -> (real: MPDLineClient, ours: MPDLineClient) {
            (try MPDLineClient("127.0.0.1:\(mpd.port)"), try daemon.client())
        }

        deinit {
            mpd.stop()
            daemon.stop()
            try? FileManager.default.removeItem(at: tones)
        }
    }

    /// An answer as compared: its `ACK` line, or the named fields in order and `OK`. `%` in
    /// `line` is the server's folder of the music (nothing for mpd, `Music/` for Tonearm).
    static func answer(_ client: MPDLineClient, _ line: String, keys: Set<String>, folder: String) throws -> String {
        let answer = try client.command(line.replacingOccurrences(of: "%", with: folder))
        if let ack = answer.ack { return ack }
        let fields = answer.fields.filter { keys.contains($0.key) }.map { field in
            let value = field.key == "file" && field.value.hasPrefix(folder) ? String(field.value.dropFirst(folder.count)) : field.value
            return "\(field.key): \(value)\n"
        }
        return fields.joined() + "OK"
    }

    /// Sends `line` to both servers and expects the same answer.
    @discardableResult
    static func same(
        _ s: Servers, _ line: String, _ keys: Set<String> = [], clients: (real: MPDLineClient, ours: MPDLineClient)? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let theirs = try answer(clients?.real ?? s.real, line, keys: keys, folder: "")
        let mine = try answer(clients?.ours ?? s.ours, line, keys: keys, folder: "Music/")
        print("> \(line)\n\(mine)")
        #expect(mine == theirs, "\(line)\n  mpd:     \(theirs)\n  tonearm: \(mine)", sourceLocation: sourceLocation)
        return mine
    }

    /// Waits until both servers' `status` says `value` for `key`.
    static func both(_ s: Servers, _ key: String, _ value: String, timeout: Double = 15, sourceLocation: SourceLocation = #_sourceLocation) {
        for client in [s.real, s.ours] {
            let reached = eventuallyBlocking(timeout: timeout) { (try? client.status()[key]) == value }
            #expect(reached, "\(key) never became \(value): \(String(describing: try? client.status()))", sourceLocation: sourceLocation)
        }
    }

    static let song: Set<String> = ["file", "Pos", "Id"]

    /// Ranges past the end are cut as mpd cuts them (END cut, START past the end "Bad song
    /// index", START at the end nothing), and the queue's edits check and change what mpd's do.
    @Test func queueRangesAndEditsAreMPDs() throws {
        let s = try Servers()
        for line in ["add %Album", "add %Album/first.flac", "add %Album/second.flac"] { try Self.same(s, line) }
        try Self.same(s, "playlistinfo", Self.song)
        for line in ["playlistinfo 3:10", "playlistinfo 5:10", "playlistinfo 6:10", "playlistinfo 10", "playlistinfo 5", "playlistinfo -1"] {
            try Self.same(s, line, Self.song)
        }
        for line in ["playlistinfo x", "playlistinfo 2:1", "playlistinfo -2", "playlistid 99", "playlistid x", "playlistid -1", "playlistid 2"] {
            try Self.same(s, line, Self.song)
        }
        // A version newer than the queue's is answered with every song; a range is cut at both ends.
        for line in ["plchanges 99999", "plchanges 0 9:12", "plchanges x", "plchanges 0 3:"] { try Self.same(s, line, ["Pos", "Id"]) }
        try Self.same(s, "plchangesposid 0 3:", ["cpos", "Id"])

        for line in ["move 3:10 0", "move 3: 0", "move 5 0", "move 4 5", "move 2:1 0", "move -1 0", "move 0 +1", "moveid 99 0", "move 0:2 3"] {
            try Self.same(s, line)
        }
        try Self.same(s, "playlistinfo", Self.song)
        for line in ["swap 0 5", "swap 0 4", "swap x 1", "swapid 1 99", "swapid 1 2"] { try Self.same(s, line) }
        try Self.same(s, "playlistinfo", Self.song)

        for line in ["prio 256 0", "prio 10 0:2 4", "prio 10 6", "prio 10 5", "prio 10 x", "prioid 3 999", "prioid 3 1 2", "prioid 300 1"] {
            try Self.same(s, line)
        }
        try Self.same(s, "playlistinfo", ["Pos", "Id", "Prio"])

        // A range: a start within the song, an end at or past its end taken as none.
        for line in ["rangeid 1 x", "rangeid 99 1:", "rangeid 1 5:", "rangeid 2 40:", "rangeid 2 2.5:60", "rangeid 3 4:2"] { try Self.same(s, line) }
        try Self.same(s, "playlistinfo", ["Pos", "Range"])
        try Self.same(s, "rangeid 1 :")
        try Self.same(s, "playlistinfo", ["Pos", "Range"])

        // Tags are a stream's to edit, never a local file's.
        for line in ["addtagid 1 Genre Jazz", "addtagid 1 Foo x", "cleartagid 99", "cleartagid 1 Foo"] { try Self.same(s, line) }
        let id = try Self.same(s, "addid http://127.0.0.1:9/live", ["Id"])
        let stream = id.split(separator: "\n").first.map { String($0.dropFirst(4)) } ?? ""
        for line in ["addtagid \(stream) Genre Jazz", "addtagid \(stream) genre Blues", "playlistid \(stream)", "cleartagid \(stream) Genre", "playlistid \(stream)"] {
            try Self.same(s, line, ["file", "Genre"])
        }
        try Self.same(s, "deleteid \(stream)")

        for line in ["delete 3:10", "delete 4:10", "delete 3:10", "delete x", "deleteid 99", "shuffle 5:9", "shuffle 0:1"] { try Self.same(s, line) }
        try Self.same(s, "playlistinfo", Self.song)
        try Self.same(s, "status", ["playlistlength"])
    }

    /// `next`, `previous` and `seekcur` are mpd's "Not playing" when stopped; `next` goes to the
    /// next song under `single`, and `status` tells that song as `nextsong`; the playback
    /// options are read and told as mpd reads and tells them.
    @Test func playbackAndOptionsAreMPDs() throws {
        let s = try Servers()
        try Self.same(s, "add %Album")
        for line in ["next", "previous", "seekcur 5", "seekcur +5", "seekcur x", "play 5", "play x", "playid 99", "seek 5 1", "seek 0 -1"] {
            try Self.same(s, line)
        }
        for line in ["setvol 101", "setvol -1", "volume 101", "pause 2", "crossfade -1", "crossfade x", "single 2", "single on", "consume 2"] {
            try Self.same(s, line)
        }
        for line in ["replay_gain_mode foo", "replay_gain_mode album", "replay_gain_status"] { try Self.same(s, line, ["replay_gain_mode"]) }
        for line in ["mixrampdb x", "mixrampdb -17.5", "mixrampdelay 2.5", "status", "mixrampdelay nan", "status", "mixrampdb 0", "status"] {
            try Self.same(s, line, ["mixrampdb", "mixrampdelay"])
        }

        try Self.same(s, "play 0")
        Self.both(s, "state", "play")
        try Self.same(s, "single 1")
        try Self.same(s, "status", ["single", "state", "song", "songid", "nextsong", "nextsongid"])
        // A listener who asks for the next song gets it, whatever `single` says.
        try Self.same(s, "next")
        Self.both(s, "song", "1")
        Self.both(s, "state", "play")
        try Self.same(s, "status", ["single", "state", "song", "songid", "nextsong", "nextsongid"])

        // `single oneshot` acts once at the song's end, then turns itself off. (mpd 0.23 pauses
        // at the start of the next song; Tonearm stops there: the state is not compared.)
        try Self.same(s, "seek 1 27")
        Self.both(s, "state", "play")
        try Self.same(s, "single oneshot")
        Self.both(s, "single", "0", timeout: 20)
        Self.both(s, "song", "2")
        try Self.same(s, "status", ["single", "song", "songid", "nextsong", "nextsongid"])
        #expect(try s.ours.status()["state"] == "stop")
        try Self.same(s, "stop")

        // Removing the song heard while paused stops, with the song after it current; a shuffle
        // while stopped leaves no song current.
        try Self.same(s, "single 0")
        try Self.same(s, "play 0")
        Self.both(s, "state", "play")
        try Self.same(s, "pause 1")
        Self.both(s, "state", "pause")
        try Self.same(s, "delete 0")
        Self.both(s, "state", "stop")
        try Self.same(s, "status", ["state", "song", "songid", "playlistlength"])
        try Self.same(s, "shuffle")
        try Self.same(s, "status", ["state", "song", "songid", "playlistlength"])
        // What mpd 0.23 refuses and Tonearm takes (MPD 0.24's): `consume oneshot`.
        #expect(try s.real.command("consume oneshot").ack == "ACK [2@0] {consume} Boolean (0/1) expected: oneshot")
    }

    /// `consume oneshot` (MPD 0.24's) removes the song that was left, once, and turns itself off.
    @Test func consumeOneshotActsOnce() throws {
        let music = try MPDClientTests.music()
        defer { try? FileManager.default.removeItem(at: music) }
        let daemon = try ServeDaemon(music: music)
        let client = try daemon.client()
        #expect(try client.command("add Music/Album").ack == nil)
        #expect(try client.command("consume oneshot").ack == nil)
        #expect(try client.status()["consume"] == "oneshot")
        #expect(try client.command("play 0").ack == nil)
        #expect(eventuallyBlocking(timeout: 15) { (try? client.status()["state"]) == "play" })
        #expect(try client.command("next").ack == nil)
        #expect(eventuallyBlocking(timeout: 15) { (try? client.status()["playlistlength"]) == "2" }, "\(daemon.logTail)")
        #expect(try client.status()["consume"] == "0")
        #expect(try client.command("next").ack == nil)
        #expect(eventuallyBlocking(timeout: 15) { (try? client.status()["song"]) == "1" }, "\(daemon.logTail)")
        #expect(try client.status()["playlistlength"] == "2", "spent: nothing more leaves")
        // The mode a client chose is told, and what Tonearm applies beside it.
        #expect(try client.command("replay_gain_mode track").ack == nil)
        let gain = try client.command("replay_gain_status").fields
        #expect(gain.first { $0.key == "replay_gain_mode" }?.value == "track")
        #expect(gain.contains { $0.key == "tonearm_levelling" })
        #expect(try client.command("rangeid 2 5:10").ack?.hasPrefix("ACK [2@0] {rangeid} Tonearm plays a song to its end") == true)
    }

    /// `replay_gain_mode` changes what the player levels by: `album` is the album as a whole
    /// (session levelling), `auto` follows the order of the queue, `off` is off.
    @Test func replayGainModeIsTheLevellingThePlayerApplies() throws {
        let music = try MPDClientTests.music()
        defer { try? FileManager.default.removeItem(at: music) }
        let daemon = try ServeDaemon(music: music)
        let client = try daemon.client()
        func applied(after line: String) throws -> [String: String] {
            #expect(try client.command(line).ack == nil, "\(line)")
            let fields = try client.command("replay_gain_status").fields
            return Dictionary(fields.map { ($0.key, $0.value) }) { first, _ in first }
        }
        #expect(try applied(after: "replay_gain_mode track") == ["replay_gain_mode": "track", "tonearm_levelling": "track"])
        #expect(try applied(after: "replay_gain_mode album") == ["replay_gain_mode": "album", "tonearm_levelling": "session"])
        #expect(try applied(after: "replay_gain_mode auto")["tonearm_levelling"] == "session", "in order: the album's gain")
        #expect(try applied(after: "random 1")["tonearm_levelling"] == "track", "shuffled: each song's own")
        #expect(try applied(after: "random 0")["tonearm_levelling"] == "session")
        #expect(try applied(after: "replay_gain_mode off") == ["replay_gain_mode": "off", "tonearm_levelling": "off"])
        #expect(try client.command("replay_gain_mode loud").ack == "ACK [2@0] {replay_gain_mode} Unrecognized replay gain mode")
        #expect(try applied(after: "ping")["tonearm_levelling"] == "off", "a refused mode changes nothing")
    }

    /// What a client in `idle` hears after `line`: `changed:` values, in order.
    static func heard(_ control: MPDLineClient, _ idler: MPDLineClient, after line: String) throws -> [String] {
        try idler.send("idle options output playlist")
        _ = try control.command(line)
        // A change is told at once; nothing told within the moment is nothing changed.
        Thread.sleep(forTimeInterval: 0.3)
        try idler.send("noidle")
        return try idler.answer().fields.filter { $0.key == "changed" }.map(\.value)
    }

    /// `idle options` wakes on every option mpd announces (some even unchanged, as mpd), `idle
    /// output` on nothing an output command leaves as it was.
    @Test func idleHearsWhatMPDAnnounces() throws {
        let s = try Servers()
        let idlers = try s.connect()
        try Self.same(s, "add %Album")
        for line in [
            "mixrampdb 1", "mixrampdelay 1", "crossfade 0", "crossfade 0", "replay_gain_mode auto", "random 0", "random 1", "single oneshot", "consume 0",
            "enableoutput 0", "outputset 0 foo bar", "disableoutput 0", "disableoutput 0", "toggleoutput 0", "enableoutput 0", "swap 0 1",
            "prio 3 0", "prio 3 0",
        ] {
            let theirs = try Self.heard(s.real, idlers.real, after: line)
            let mine = try Self.heard(s.ours, idlers.ours, after: line.replacingOccurrences(of: "%", with: "Music/"))
            #expect(mine == theirs, "\(line): mpd \(theirs), tonearm \(mine)")
        }
    }

    /// The output commands answer in mpd's words, and an output turned off is listed off.
    @Test func outputCommandsAreMPDs() throws {
        let s = try Servers()
        for line in [
            "enableoutput 9", "enableoutput x", "enableoutput -1", "enableoutput 0", "toggleoutput 9", "disableoutput 9", "outputset 5 foo bar",
            "outputset 0 f-o bar", "outputset 0 foo bar", "outputset x a b",
        ] {
            try Self.same(s, line)
        }
        try Self.same(s, "outputs", ["outputid", "outputenabled"])
        for line in ["disableoutput 0", "disableoutput 0", "toggleoutput 0", "toggleoutput 0"] {
            try Self.same(s, line)
            try Self.same(s, "outputs", ["outputid", "outputenabled"])
        }
    }

    /// A command list is bounded by its bytes, 2 MiB as mpd's: 2,000 `add`s are one list, and a
    /// list past the bound ends the connection without a word, as mpd ends it. `binarylimit` and
    /// `tagtypes` are each connection's own, refused in mpd's words.
    @Test func commandListsAndConnectionSettingsAreMPDs() throws {
        let s = try Servers()
        for (client, folder) in [(s.real, ""), (s.ours, "Music/")] {
            let adds = (0..<2000).map { "add \"\(folder)Album/\(["first", "second", "third"][$0 % 3]).flac\"\n" }.joined()
            try client.send(bytes: Array(("command_list_ok_begin\n" + adds + "command_list_end\n").utf8))
            #expect(try client.answer().ack == nil)
        }
        try Self.same(s, "status", ["playlistlength"])
        try Self.same(s, "playlistinfo 1998:", Self.song)
        let fresh = try s.connect()
        for client in [fresh.real, fresh.ours] {
            // "ping" is 5 bytes with its count: 419,431 of them are one past 2 MiB.
            try client.send(bytes: Array(("command_list_begin\n" + String(repeating: "ping\n", count: 419_431)).utf8))
            #expect(throws: MPDLineClient.Failure.self, "closed without an answer") { try client.readLine() }
        }

        for line in ["binarylimit 63", "binarylimit 64", "binarylimit x", "binarylimit -1", "binarylimit 99999999999", "binarylimit 8192"] {
            try Self.same(s, line)
        }
        for line in ["tagtypes enable Foo", "tagtypes enable", "tagtypes disable", "tagtypes all x", "tagtypes clear x", "tagtypes bogus"] {
            try Self.same(s, line)
        }
        // Conductor is one of mpd's tags, which Tonearm's songs never carry: accepted all the same.
        for line in ["tagtypes clear", "tagtypes", "tagtypes enable title Conductor", "tagtypes disable conductor", "tagtypes", "tagtypes disable TITLE", "tagtypes"] {
            try Self.same(s, line, ["tagtype"])
        }
        // Tonearm's songs have a title: this connection no longer hears it, another one does.
        #expect(try s.ours.command("playlistinfo 0").fields.contains { $0.key == "Title" } == false)
        let other = try s.daemon.client()
        #expect(try other.command("playlistinfo 0").fields.contains { $0.key == "Title" })
        #expect(try s.ours.command("tagtypes all").ack == nil)
        #expect(try s.ours.command("playlistinfo 0").fields.contains { $0.key == "Title" })

        // Every command Tonearm lists is one of mpd's.
        let theirs = Set(try s.real.command("commands").fields.map(\.value))
        let mine = try s.ours.command("commands").fields.map(\.value)
        #expect(Set(mine).subtracting(theirs).isEmpty, "\(Set(mine).subtracting(theirs).sorted())")
        #expect(mine == mine.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    /// The bound is the daemon's to set, in KiB as mpd.conf's `max_command_list_size`.
    @Test func theCommandListBoundIsConfigurable() throws {
        let music = try MPDClientTests.music()
        defer { try? FileManager.default.removeItem(at: music) }
        let daemon = try ServeDaemon(["--mpd-max-command-list-size", "1"], music: music)
        let fits = try daemon.client()
        // "ping" is 5 bytes with its count: 204 of them are 1,020 bytes, 205 one past 1 KiB.
        try fits.send(bytes: Array(("command_list_begin\n" + String(repeating: "ping\n", count: 204) + "command_list_end\n").utf8))
        #expect(try fits.answer().ack == nil)
        let over = try daemon.client()
        try over.send(bytes: Array(("command_list_begin\n" + String(repeating: "ping\n", count: 205)).utf8))
        #expect(throws: MPDLineClient.Failure.self) { try over.readLine() }
    }
}
