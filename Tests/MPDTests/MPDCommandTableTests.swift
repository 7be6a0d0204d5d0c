import MPDProtocol
import Testing

@testable import MPD

/// The backend's commands are one table of data: each name once, every command the server
/// knows listed by `commands` from that table and the connection's own, arguments counted
/// before a handler runs.
@Suite("MPD command table")
struct MPDCommandTableTests {
    /// The groups as the backend gathers them, read without building the table (which stops the
    /// program on a name it holds twice).
    static var groupNames: [String] {
        [
            MPDPlayerBackend.playbackCommands, MPDPlayerBackend.queueCommands, MPDPlayerBackend.queueSearchCommands, MPDPlayerBackend.infoCommands,
            MPDPlayerBackend.outputCommands,
            MPDPlayerBackend.storedPlaylistCommands, MPDPlayerBackend.databaseCommands, MPDPlayerBackend.pictureCommands,
            MPDPlayerBackend.stickerCommands, MPDPlayerBackend.fileCommands, MPDPlayerBackend.fingerprintCommands, MPDPlayerBackend.commentCommands,
        ].flatMap { $0.map(\.spec.name) }
    }

    static var everyName: [String] { groupNames + MPDConnectionStateMachine.serverCommands.map(\.name) }

    /// Runs `lines` on a new connection and returns the values of `command` in its answer.
    static func listed(_ lines: String, password: String? = nil) throws -> [String] {
        var machine = MPDConnectionStateMachine(password: password, commands: MPDPlayerBackend.commands.specs)
        var reader = MPDAnswerReader(expectsGreeting: false)
        for case .send(let bytes) in machine.received(Array(lines.utf8)) { reader.feed(bytes) }
        var names: [String] = []
        while let event = try reader.next() {
            guard case .ok(let response) = event else {
                Issue.record("not an answer: \(event)")
                continue
            }
            names += response.fields.filter { $0.key == "command" }.map(\.value)
        }
        return names
    }

    @Test func noNameIsInTheTableTwice() {
        var seen: [String: Int] = [:]
        for name in Self.everyName { seen[name, default: 0] += 1 }
        #expect(seen.filter { $0.value > 1 }.isEmpty, "in the table twice: \(seen.filter { $0.value > 1 }.keys.sorted())")
        #expect(MPDPlayerBackend.commands.specs.map(\.name) == Self.groupNames)
    }

    @Test func commandsListsTheConnectionsOwnAndTheTableInMPDsOrder() throws {
        let listed = try Self.listed("commands\n")
        #expect(listed == Self.everyName.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(Set(listed) == Set(Self.everyName))
        #expect(try Self.listed("notcommands\n") == [])
    }

    @Test func beforeItsPasswordAClientIsToldWhatItMayRunAndWhatNot() throws {
        let may = try Self.listed("commands\n", password: "secret")
        let mayNot = try Self.listed("notcommands\n", password: "secret")
        // What mpd 0.23 lets anyone run (PERMISSION_NONE): the connection's own commands.
        #expect(may == ["binarylimit", "close", "commands", "notcommands", "password", "ping", "tagtypes"])
        #expect(Set(may + mayNot) == Set(Self.everyName))
        #expect(mayNot.contains("status") && mayNot.contains("idle") && mayNot.contains("enableoutput"))
        #expect(try Self.listed("password secret\ncommands\n", password: "secret").count == Self.everyName.count)
    }

    @Test func permissionsAreMPDs() {
        let specs = Dictionary(uniqueKeysWithValues: MPDPlayerBackend.commands.specs.map { ($0.name, $0) })
        #expect(specs["status"]?.permission == .read)
        #expect(specs["add"]?.permission == .add)
        #expect(specs["play"]?.permission == .control)
        #expect(specs["enableoutput"]?.permission == .admin)
        #expect(specs.values.allSatisfy { !$0.permission.isEmpty }, "every backend command needs a permission")
    }

    @Test func argumentsAreCountedBeforeTheHandlerRuns() {
        var machine = MPDConnectionStateMachine(password: nil, commands: MPDPlayerBackend.commands.specs)
        func answer(_ line: String) -> String {
            machine.received(Array("\(line)\n".utf8)).map {
                switch $0 {
                case .send(let bytes): String(decoding: bytes, as: UTF8.self)
                case .execute(let command): "execute \(command.name) \(command.arguments.count)\n"
                default: ""
                }
            }.joined()
        }
        #expect(answer("play 1 2") == "ACK [2@0] {play} too many arguments for \"play\"\n")
        #expect(answer("seek 1") == "ACK [2@0] {seek} wrong number of arguments for \"seek\"\n")
        #expect(answer("add") == "ACK [2@0] {add} too few arguments for \"add\"\n")
        #expect(answer("status now") == "ACK [2@0] {status} wrong number of arguments for \"status\"\n")
        #expect(answer("tagtypes enable Artist Title") == "OK\n", "the connection's own, since it is per connection")
    }

    /// mpd 0.23's command table (`command/AllCommands.cxx`): each command's least and most
    /// arguments (-1: unchecked) and its permission (MPD's `player` and `control` are both
    /// Tonearm's `control`).
    static let mpdTable: [String: (min: Int, max: Int, permission: MPDPermission)] = [
        "add": (1, 2, .add), "addid": (1, 2, .add), "addtagid": (3, 3, .add), "albumart": (2, 2, .read), "binarylimit": (1, 1, []),
        "channels": (0, 0, .read), "clear": (0, 0, .control), "clearerror": (0, 0, .control), "cleartagid": (1, 2, .add),
        "close": (-1, -1, []), "commands": (0, 0, []), "config": (0, 0, .admin), "consume": (1, 1, .control), "count": (1, -1, .read),
        "crossfade": (1, 1, .control), "currentsong": (0, 0, .read), "decoders": (0, 0, .read), "delete": (1, 1, .control),
        "deleteid": (1, 1, .control), "delpartition": (1, 1, .admin), "disableoutput": (1, 1, .admin), "enableoutput": (1, 1, .admin),
        "find": (1, -1, .read), "findadd": (1, -1, .add), "getfingerprint": (1, 1, .read), "getvol": (0, 0, .read), "idle": (0, -1, .read),
        "kill": (-1, -1, .admin), "list": (1, -1, .read), "listall": (0, 1, .read), "listallinfo": (0, 1, .read),
        "listfiles": (0, 1, .read), "listmounts": (0, 0, .read), "listneighbors": (0, 0, .read), "listpartitions": (0, 0, .read),
        "listplaylist": (1, 1, .read), "listplaylistinfo": (1, 1, .read), "listplaylists": (0, 0, .read), "load": (1, 3, .add),
        "lsinfo": (0, 1, .read), "mixrampdb": (1, 1, .control), "mixrampdelay": (1, 1, .control), "mount": (2, 2, .admin),
        "move": (2, 2, .control), "moveid": (2, 2, .control), "moveoutput": (1, 1, .admin), "newpartition": (1, 1, .admin),
        "next": (0, 0, .control), "notcommands": (0, 0, []), "outputs": (0, 0, .read), "outputset": (3, 3, .admin),
        "partition": (1, 1, .read), "password": (1, 1, []), "pause": (0, 1, .control), "ping": (0, 0, []), "play": (0, 1, .control),
        "playid": (0, 1, .control), "playlist": (0, 0, .read), "playlistadd": (2, 3, .control), "playlistclear": (1, 1, .control),
        "playlistdelete": (2, 2, .control), "playlistfind": (1, -1, .read), "playlistid": (0, 1, .read), "playlistinfo": (0, 1, .read),
        "playlistmove": (3, 3, .control), "playlistsearch": (1, -1, .read), "plchanges": (1, 2, .read), "plchangesposid": (1, 2, .read),
        "previous": (0, 0, .control), "prio": (2, -1, .control), "prioid": (2, -1, .control), "random": (1, 1, .control),
        "rangeid": (2, 2, .add), "readcomments": (1, 1, .read), "readmessages": (0, 0, .read), "readpicture": (2, 2, .read),
        "rename": (2, 2, .control), "repeat": (1, 1, .control), "replay_gain_mode": (1, 1, .control), "replay_gain_status": (0, 0, .read),
        "rescan": (0, 1, .control), "rm": (1, 1, .control), "save": (1, 1, .control), "search": (1, -1, .read), "searchadd": (1, -1, .add),
        "searchaddpl": (2, -1, .control), "seek": (2, 2, .control), "seekcur": (1, 1, .control), "seekid": (2, 2, .control),
        "sendmessage": (2, 2, .control), "setvol": (1, 1, .control), "shuffle": (0, 1, .control), "single": (1, 1, .control),
        "stats": (0, 0, .read), "status": (0, 0, .read), "sticker": (3, -1, .admin), "stop": (0, 0, .control), "subscribe": (1, 1, .read),
        "swap": (2, 2, .control), "swapid": (2, 2, .control), "tagtypes": (0, -1, []), "toggleoutput": (1, 1, .admin),
        "unmount": (1, 1, .admin), "unsubscribe": (1, 1, .read), "update": (0, 1, .control), "urlhandlers": (0, 0, .read),
        "volume": (1, 1, .control)
    ]

    /// Commands that take a later mpd's arguments on purpose: `save`'s mode (0.24), which 0.23
    /// clients never send.
    static let laterArity: [String: (min: Int, max: Int)] = ["save": (1, 2)]

    /// `commands` tells the truth: every command Tonearm lists is one of mpd 0.23's, and takes
    /// the arguments and needs the permission mpd's does, so a client reads the list as it reads
    /// mpd's.
    @Test func everyCommandIsMPDsWithItsArgumentsAndPermission() {
        let specs = MPDPlayerBackend.commands.specs + MPDConnectionStateMachine.serverCommands
        for spec in specs {
            guard let mpd = Self.mpdTable[spec.name] else {
                Issue.record("\(spec.name) is not an mpd 0.23 command")
                continue
            }
            #expect(spec.permission == mpd.permission, "\(spec.name): permission")
            let arity = Self.laterArity[spec.name] ?? (mpd.min, mpd.max)
            #expect(spec.arity.min == max(0, arity.min), "\(spec.name): least arguments")
            #expect(spec.arity.max == (arity.max < 0 ? nil : arity.max), "\(spec.name): most arguments")
        }
        for name in ["swap", "swapid", "prio", "prioid", "rangeid", "addtagid", "cleartagid", "toggleoutput", "outputset", "binarylimit",
            "playlistfind", "playlistsearch", "readcomments",
            "mixrampdb", "mixrampdelay", "replay_gain_mode"]
        {
            #expect(specs.contains { $0.name == name }, "\(name) is served")
        }
    }
}
