import MPDProtocol
import Testing

/// A command's arguments are counted and its permission checked as MPD does, in MPD's words.
@Suite("MPD command specs")
struct MPDCommandSpecTests {
    @Test func arityIsWordedAsMPDWordsIt() {
        #expect(MPDArity(1...1).refusal(count: 0, command: "password")?.line == "ACK [2@0] {password} wrong number of arguments for \"password\"")
        #expect(MPDArity(1...2).refusal(count: 0, command: "add")?.line == "ACK [2@0] {add} too few arguments for \"add\"")
        #expect(MPDArity(0...1).refusal(count: 2, command: "play")?.line == "ACK [2@0] {play} too many arguments for \"play\"")
        #expect(MPDArity(0...1).refusal(count: 1, command: "play") == nil)
        #expect(MPDArity(0...).refusal(count: 40, command: "idle") == nil)
        #expect(MPDArity(2...).refusal(count: 1, command: "x")?.message == "too few arguments for \"x\"")
    }

    @Test func theConnectionsOwnCommandsAreEachOnceAndSorted() {
        let names = MPDConnectionStateMachine.serverCommands.map(\.name)
        #expect(
            names == [
                "binarylimit", "channels", "close", "commands", "config", "idle", "notcommands", "password", "ping", "readmessages", "sendmessage",
                "subscribe", "tagtypes", "unsubscribe",
            ])
        #expect(MPDCommandSpec.sortedNames([MPDCommandSpec("b_c", 0...0, []), MPDCommandSpec("bc", 0...0, []), MPDCommandSpec("B", 0...0, [])]) == ["B", "b_c", "bc"])
    }

    @Test func aBackendCommandWithTheRightCountReachesTheBackend() {
        var machine = MPDConnectionStateMachine(password: nil, commands: [MPDCommandSpec("seek", 2...2, .control)])
        let asked = machine.received(Array("seek 1 2\n".utf8))
        #expect(asked.last == .execute(MPDCommand("seek", ["1", "2"])))
        var refused = MPDConnectionStateMachine(password: nil, commands: [MPDCommandSpec("seek", 2...2, .control)])
        let answered = refused.received(Array("seek 1\n".utf8))
        #expect(answered.first == .send(Array("ACK [2@0] {seek} wrong number of arguments for \"seek\"\n".utf8)))
    }

    @Test func aServerNameTheBackendAlsoClaimsStaysTheServers() {
        var machine = MPDConnectionStateMachine(password: nil, commands: [MPDCommandSpec("ping", 0..., .read)])
        let answered = machine.received(Array("ping\n".utf8))
        #expect(answered.first == .send(Array("OK\n".utf8)))
    }
}
