import MPDProtocol
import Testing

typealias Action = MPDConnectionStateMachine.Action

/// A connection driven line by line: what it sends, what it asks the backend, when it closes.
struct Connection {
    var machine: MPDConnectionStateMachine
    var output = ""
    var executed: [MPDCommand] = []
    var closed = false
    var timerArmed = false

    init(password: String? = nil, backend: Set<String> = ["status", "currentsong", "play", "add"], limits: MPDLimits = .standard) {
        machine = MPDConnectionStateMachine(password: password, backendCommands: backend, limits: limits)
        apply(machine.connectionOpened())
        output = ""
    }

    mutating func apply(_ actions: [Action]) {
        for (position, action) in actions.enumerated() {
            #expect(!closed, "an action after close")
            switch action {
            case .send(let bytes): output += String(decoding: bytes, as: UTF8.self)
            case .execute(let command):
                #expect(position == actions.count - 1, "execute is not the last action")
                executed.append(command)
            case .armTimeout: timerArmed = true
            case .disarmTimeout: timerArmed = false
            case .close: closed = true
            }
        }
    }

    /// Sends text and returns (and clears) what the server answered.
    @discardableResult
    mutating func send(_ text: String) -> String {
        apply(machine.received(Array(text.utf8)))
        return take()
    }

    @discardableResult
    mutating func succeed(_ fields: [MPDResponse.Field] = []) -> String {
        apply(machine.commandSucceeded(MPDResponse(fields)))
        return take()
    }

    @discardableResult
    mutating func fail(_ ack: MPDAck) -> String {
        apply(machine.commandFailed(ack))
        return take()
    }

    @discardableResult
    mutating func change(_ subsystem: MPDSubsystem) -> String {
        apply(machine.changed(subsystem))
        return take()
    }

    mutating func take() -> String {
        defer { output = "" }
        return output
    }
}

@Suite("MPD connection state machine")
struct MPDConnectionStateMachineTests {
    @Test func greetsWithTheProtocolVersionAndStartsTheTimer() {
        var machine = MPDConnectionStateMachine(password: nil, backendCommands: [])
        #expect(machine.connectionOpened() == [.send(Array("OK MPD 0.23.5\n".utf8)), .armTimeout(.seconds(60))])
    }

    @Test func aBackendCommandIsAskedAndAnswered() {
        var connection = Connection()
        #expect(connection.send("status\n") == "")
        #expect(connection.executed == [MPDCommand("status")])
        #expect(!connection.timerArmed, "no silence timeout while the backend works")
        #expect(connection.succeed([.init("volume", "42"), .init("state", "play")]) == "volume: 42\nstate: play\nOK\n")
        #expect(connection.timerArmed)
        #expect(connection.send("play 3\n") == "")
        #expect(connection.fail(MPDAck(.noExist, "No such song")) == "ACK [50@0] {play} No such song\n")
    }

    @Test func pipelinedRequestsRunOneAtATimeInOrder() {
        var connection = Connection()
        connection.send("status\nping\ncurrentsong\n")
        #expect(connection.executed == [MPDCommand("status")])
        #expect(connection.succeed() == "OK\nOK\n")
        #expect(connection.executed == [MPDCommand("status"), MPDCommand("currentsong")])
        #expect(connection.succeed([.init("file", "a")]) == "file: a\nOK\n")
    }

    @Test func unknownCommandsNeverReachTheBackend() {
        var connection = Connection()
        #expect(connection.send("frobnicate 1\n") == "ACK [5@0] {} unknown command \"frobnicate\"\n")
        #expect(connection.send("command_list_end\n") == "ACK [5@0] {} unknown command \"command_list_end\"\n")
        #expect(connection.executed.isEmpty)
        #expect(!connection.closed)
    }

    @Test func aCommandListWithListOK() {
        var connection = Connection()
        #expect(connection.send("command_list_ok_begin\nstatus\nping\ncurrentsong\n") == "")
        #expect(connection.machine.isCollectingCommandList)
        #expect(connection.executed.isEmpty, "nothing runs before command_list_end")
        connection.send("command_list_end\n")
        #expect(connection.succeed([.init("state", "stop")]) == "state: stop\nlist_OK\nlist_OK\n")
        #expect(connection.succeed() == "list_OK\nOK\n")
        #expect(connection.executed == [MPDCommand("status"), MPDCommand("currentsong")])
    }

    @Test func aFailedCommandStopsTheListAndNamesItsIndex() {
        var connection = Connection()
        connection.send("command_list_begin\nping\nplay 99\nstatus\ncommand_list_end\n")
        #expect(connection.fail(MPDAck(.noExist, "No such song")) == "ACK [50@1] {play} No such song\n")
        #expect(connection.executed == [MPDCommand("play", ["99"])], "the command after the failure did not run")
        // A parse failure inside a list names its index too.
        #expect(connection.send("command_list_begin\nping\nadd \"open\ncommand_list_end\n") == "ACK [5@1] {} Missing closing '\"'\n")
    }

    @Test func aNestedBeginIsRefusedAtItsIndex() {
        var connection = Connection()
        let answer = connection.send("command_list_begin\nping\ncommand_list_begin\nping\ncommand_list_end\n")
        #expect(answer == "ACK [5@1] {} unknown command \"command_list_begin\"\n")
    }

    @Test func idleInACommandListIsRefused() {
        var connection = Connection()
        #expect(connection.send("command_list_begin\nidle\ncommand_list_end\n") == "ACK [2@0] {idle} idle is not allowed in a command list\n")
        #expect(!connection.machine.isIdle)
    }

    @Test func withoutAPasswordEverythingIsAllowed() {
        var connection = Connection()
        #expect(connection.machine.isAuthenticated)
        let commands = connection.send("commands\n")
        #expect(commands == ([
            "add", "binarylimit", "channels", "close", "commands", "config", "currentsong", "idle", "notcommands", "password", "ping", "play",
            "readmessages", "sendmessage", "status", "subscribe", "tagtypes", "unsubscribe",
        ].map { "command: \($0)\n" }.joined() + "OK\n"))
        #expect(connection.send("notcommands\n") == "OK\n")
        #expect(connection.send("password x\n") == "ACK [3@0] {password} incorrect password\n")
    }

    @Test func withAPasswordOnlyTheHarmlessCommandsComeFirst() {
        var connection = Connection(password: "secret")
        #expect(connection.send("status\n") == "ACK [4@0] {status} you don't have permission for \"status\"\n")
        #expect(connection.send("idle\n") == "ACK [4@0] {idle} you don't have permission for \"idle\"\n")
        #expect(connection.send("commands\n") == ["binarylimit", "close", "commands", "notcommands", "password", "ping", "tagtypes"].map { "command: \($0)\n" }.joined() + "OK\n")
        #expect(connection.send("notcommands\n") == [
            "add", "channels", "config", "currentsong", "idle", "play", "readmessages", "sendmessage", "status", "subscribe", "unsubscribe",
        ].map { "command: \($0)\n" }.joined() + "OK\n")
        #expect(connection.send("ping\n") == "OK\n")
        #expect(connection.send("password wrong\n") == "ACK [3@0] {password} incorrect password\n")
        #expect(connection.send("password\n") == "ACK [2@0] {password} wrong number of arguments for \"password\"\n")
        #expect(connection.executed.isEmpty)
        #expect(connection.send("password secret\n") == "OK\n")
        connection.send("status\n")
        #expect(connection.executed == [MPDCommand("status")])
        #expect(connection.succeed() == "OK\n")
        #expect(connection.send("notcommands\n") == "OK\n")
    }

    @Test func permissionsApplyPerCommandInsideAList() {
        var list = Connection(password: "secret")
        #expect(list.send("command_list_ok_begin\nping\nstatus\ncommand_list_end\n") == "list_OK\nACK [4@1] {status} you don't have permission for \"status\"\n")
        #expect(list.send("command_list_ok_begin\npassword secret\nstatus\ncommand_list_end\n") == "list_OK\n")
        #expect(list.executed == [MPDCommand("status")])
    }

    @Test func aTooLongLineIsAnACKAndAClose() {
        var connection = Connection(limits: MPDLimits(maxLineLength: 64))
        // Sent without a newline, in pieces: refused once the limit is passed, not buffered on.
        #expect(connection.send(String(repeating: "a", count: 40)) == "")
        #expect(connection.send(String(repeating: "a", count: 40)) == "ACK [5@0] {} Line too long\n")
        #expect(connection.closed)
        #expect(connection.send("ping\n") == "", "nothing after close")
        var whole = Connection(limits: MPDLimits(maxLineLength: 64))
        #expect(whole.send("add " + String(repeating: "a", count: 61) + "\n") == "ACK [5@0] {} Line too long\n")
        #expect(whole.closed)
    }

    /// A list is bounded by its bytes as MPD counts them (each line without trailing white space,
    /// and one), never by how many commands it holds; one past the bound ends the connection
    /// without a word, as mpd 0.23 ends it ("command list size is larger than the max").
    @Test func aCommandListIsBoundedByItsBytesAndOnePastTheBoundClosesSilently() {
        // "add aaaaaaaaaa" is 14 bytes and one: two of them are 30 bytes, the bound.
        var fits = Connection(limits: MPDLimits(maxCommandListBytes: 30))
        #expect(fits.send("command_list_begin\nadd aaaaaaaaaa  \nadd bbbbbbbbbb\t\ncommand_list_end\n") == "")
        #expect(fits.executed.map(\.arguments) == [["aaaaaaaaaa"]])
        #expect(fits.succeed() == "")
        #expect(fits.succeed() == "OK\n")
        var over = Connection(limits: MPDLimits(maxCommandListBytes: 30))
        #expect(over.send("command_list_begin\nadd aaaaaaaaaa\nadd bbbbbbbbbbb\n") == "")
        #expect(over.closed)
        #expect(over.executed.isEmpty, "nothing of an over-long list runs")
        #expect(over.send("ping\n") == "", "nothing after close")
    }

    @Test func twoThousandCommandsInAListAreOneList() {
        var connection = Connection()
        let list = "command_list_ok_begin\n" + String(repeating: "add \"Music/Album/first.flac\"\n", count: 2000) + "command_list_end\n"
        #expect(connection.send(list) == "")
        var answers = ""
        for _ in 0..<2000 { answers += connection.succeed() }
        #expect(answers == String(repeating: "list_OK\n", count: 2000) + "OK\n")
        #expect(connection.executed.count == 2000)
        #expect(!connection.closed)
    }

    /// The default bound is MPD's: 2 MiB, and a client may send such a list in one write.
    @Test func theDefaultBoundIsMPDsTwoMebibytes() {
        #expect(MPDLimits.standard.maxCommandListBytes == 2 * 1024 * 1024)
        #expect(MPDLimits.standard.maxBufferedInput > MPDLimits.standard.maxCommandListBytes)
        // "ping" is 5 bytes with its count: 419,430 of them fit, one more does not.
        var fits = Connection()
        #expect(fits.send("command_list_begin\n" + String(repeating: "ping\n", count: 419_430) + "command_list_end\n") == "OK\n")
        var over = Connection()
        #expect(over.send("command_list_begin\n" + String(repeating: "ping\n", count: 419_431)) == "")
        #expect(over.closed)
    }

    @Test func notSpeakingTheProtocolCloses() {
        var http = Connection()
        #expect(http.send("GET / HTTP/1.1\r\n") == "ACK [5@0] {} Letter expected\n")
        #expect(http.closed)
        var empty = Connection()
        #expect(empty.send("\n") == "ACK [5@0] {} No command given\n")
        #expect(empty.closed)
        var quoting = Connection()
        #expect(quoting.send("add \"x\n") == "ACK [5@0] {} Missing closing '\"'\n")
        #expect(!quoting.closed, "a bad argument is an error, not the end of the connection")
    }

    @Test func changesBeforeIdleAreReportedAtIdle() {
        var connection = Connection()
        #expect(connection.change(.player) == "")
        #expect(connection.change(.mixer) == "")
        #expect(connection.send("idle\n") == "changed: player\nchanged: mixer\nOK\n")
        #expect(connection.machine.pendingChanges.isEmpty)
        #expect(connection.send("idle\n") == "", "nothing new: the client waits")
        #expect(connection.machine.isIdle)
        #expect(!connection.timerArmed, "an idle client is never timed out")
        #expect(connection.change(.playlist) == "changed: playlist\nOK\n")
        #expect(!connection.machine.isIdle)
        #expect(connection.timerArmed)
    }

    @Test func idleForSomeSubsystemsWaitsForThoseAndForgetsTheRest() {
        var connection = Connection()
        connection.change(.player)
        #expect(connection.send("idle mixer OUTPUT\n") == "")
        #expect(connection.change(.database) == "")
        #expect(connection.change(.output) == "changed: output\nOK\n")
        // As MPD does, the answer clears every pending change, also those not asked for.
        #expect(connection.machine.pendingChanges.isEmpty)
        #expect(connection.send("idle nothing\n") == "ACK [2@0] {idle} Unrecognized idle event: nothing\n")
    }

    @Test func noidleEndsAWaitingIdleAndKeepsPendingChanges() {
        var connection = Connection()
        #expect(connection.send("noidle\n") == "", "noidle without idle answers nothing")
        connection.send("idle player\n")
        connection.change(.mixer)
        #expect(connection.send("noidle\n") == "OK\n")
        #expect(connection.send("idle\n") == "changed: mixer\nOK\n")
    }

    @Test func onlyNoidleIsAllowedDuringIdle() {
        var connection = Connection()
        connection.send("idle\n")
        #expect(connection.send("status\n") == "ACK [5@0] {} Only noidle is allowed during idle\n")
        #expect(connection.closed)
    }

    @Test func silenceClosesOnlyAClientThatIsNeitherIdleNorWaiting() {
        var connection = Connection()
        connection.send("status\n")
        #expect(connection.machine.timeoutFired() == [], "a client waiting for an answer stays")
        connection.succeed()
        connection.send("idle\n")
        #expect(connection.machine.timeoutFired() == [], "an idle client stays")
        connection.send("noidle\n")
        #expect(connection.machine.timeoutFired() == [.close])
    }

    @Test func closeAnswersNothingAndEnds() {
        var connection = Connection()
        #expect(connection.send("close\nping\n") == "")
        #expect(connection.closed)
    }

    @Test func theBackendsACKGetsTheCommandNameAndIndex() {
        var connection = Connection()
        connection.send("command_list_begin\nstatus\nadd x\ncommand_list_end\n")
        connection.succeed()
        #expect(connection.fail(MPDAck(.noExist, "line one\nline two")) == "ACK [50@1] {add} line one line two\n")
    }

    @Test func inputSentAheadIsBounded() {
        var connection = Connection(limits: MPDLimits(maxBufferedInput: 100))
        connection.send("status\n")
        #expect(connection.send(String(repeating: "ping\n", count: 30)) == "ACK [5@0] {} Too much input sent ahead\n")
        #expect(connection.closed)
    }

    // MARK: What a connection sets for itself

    /// `binarylimit` is the connection's own and reaches the backend with every later command;
    /// out-of-bounds values get mpd 0.23's words.
    @Test func binarylimitIsKeptPerConnectionAndHandedToTheBackend() {
        var connection = Connection()
        #expect(connection.send("binarylimit 63\n") == "ACK [2@0] {binarylimit} Value too small\n")
        #expect(connection.send("binarylimit x\n") == "ACK [2@0] {binarylimit} Integer expected: x\n")
        #expect(connection.send("binarylimit -1\n") == "ACK [2@0] {binarylimit} Number too large: -1\n")
        #expect(connection.send("binarylimit 99999999999\n") == "ACK [2@0] {binarylimit} Number too large: 99999999999\n")
        #expect(connection.send("status\n") == "")
        #expect(connection.executed.last?.client.binaryLimit == MPDClientState.defaultBinaryLimit)
        connection.succeed()
        #expect(connection.send("binarylimit 64\n") == "OK\n")
        connection.send("status\n")
        #expect(connection.executed.last?.client.binaryLimit == 64)
        connection.succeed()
        var other = Connection()
        other.send("status\n")
        #expect(other.executed.last?.client.binaryLimit == MPDClientState.defaultBinaryLimit, "another connection keeps its own")
    }

    /// `tagtypes` as mpd answers it: the server's tags less what this connection turned off, any
    /// of MPD's names accepted in any case, the sub-commands' errors in its words.
    @Test func tagtypesChangesWhatThisConnectionIsSent() {
        func connection() -> Connection {
            var c = Connection()
            c.machine = MPDConnectionStateMachine(
                password: nil, backendCommands: ["playlistinfo"], tagTypes: ["Title", "Artist", "Name", "Album"])
            return c
        }
        var c = connection()
        #expect(c.send("tagtypes\n") == "tagtype: Artist\ntagtype: Album\ntagtype: Title\ntagtype: Name\nOK\n")
        #expect(c.send("tagtypes disable artist ALBUM\n") == "OK\n")
        #expect(c.send("tagtypes\n") == "tagtype: Title\ntagtype: Name\nOK\n")
        c.send("playlistinfo\n")
        #expect(c.executed.last?.client.hiddenTags == ["Artist", "Album"])
        let song = MPDResponse([.init("file", "a.flac"), .init("Artist", "A"), .init("Title", "T"), .init("Album", "B"), .init("Pos", "0")])
        #expect(c.executed.last?.client.songFields(song).fields.map(\.key) == ["file", "Title", "Pos"])
        c.succeed()
        #expect(c.send("tagtypes clear\n") == "OK\n")
        #expect(c.send("tagtypes\n") == "OK\n")
        // A tag this server's songs never carry is still one of MPD's: accepted, and not listed.
        #expect(c.send("tagtypes enable Title Conductor\n") == "OK\n")
        #expect(c.send("tagtypes\n") == "tagtype: Title\nOK\n")
        #expect(c.send("tagtypes all\n") == "OK\n")
        #expect(c.send("tagtypes\n") == "tagtype: Artist\ntagtype: Album\ntagtype: Title\ntagtype: Name\nOK\n")
        #expect(c.send("tagtypes enable Foo\n") == "ACK [2@0] {tagtypes} Unknown tag type\n")
        #expect(c.send("tagtypes enable\n") == "ACK [2@0] {tagtypes} Not enough arguments\n")
        #expect(c.send("tagtypes all x\n") == "ACK [2@0] {tagtypes} Too many arguments\n")
        #expect(c.send("tagtypes bogus\n") == "ACK [2@0] {tagtypes} Unknown sub command\n")
        var other = connection()
        #expect(other.send("tagtypes\n").hasPrefix("tagtype: Artist\n"), "another connection keeps every tag")
    }

    /// Both are answered before the password, as MPD lets anyone run them.
    @Test func binarylimitAndTagtypesNeedNoPermission() {
        var connection = Connection(password: "secret")
        #expect(connection.send("binarylimit 128\n") == "OK\n")
        #expect(connection.send("tagtypes\n") == "OK\n")
        #expect(connection.send("commands\n").contains("command: binarylimit\ncommand: close\ncommand: commands\n"))
    }
}

