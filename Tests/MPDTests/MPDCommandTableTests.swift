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
        [MPDPlayerBackend.playbackCommands, MPDPlayerBackend.queueCommands, MPDPlayerBackend.infoCommands].flatMap { $0.map(\.spec.name) }
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
        #expect(may == ["close", "commands", "notcommands", "password", "ping"])
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
        #expect(answer("tagtypes enable Artist Title") == "execute tagtypes 3\n")
    }
}
