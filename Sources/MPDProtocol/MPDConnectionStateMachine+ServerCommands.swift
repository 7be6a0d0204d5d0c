extension MPDConnectionStateMachine {
    /// A command the connection answers itself, as a row of the same table the backend's fill:
    /// what is checked before it runs, and what it does to the connection.
    struct ServerCommand: Sendable {
        let spec: MPDCommandSpec
        /// Runs with the arguments already counted and the permission already checked.
        let run: @Sendable (inout MPDConnectionStateMachine, MPDCommand, inout [Action]) -> Void
    }

    /// The commands about the connection itself, answered without the backend (MPD's table has
    /// no `noidle` or `command_list_*`: those are markers the line reader handles, not commands).
    static let serverCommandTable: [ServerCommand] = [
        // `close` takes any words after it, as MPD's does, and answers nothing: what came before
        // is written, then the connection ends.
        ServerCommand(spec: MPDCommandSpec("close", 0..., [])) { machine, _, actions in machine.closeQuietly(&actions) },
        ServerCommand(spec: MPDCommandSpec("commands", 0...0, [])) { machine, _, actions in machine.listCommands(permitted: true, &actions) },
        ServerCommand(spec: MPDCommandSpec("idle", 0..., .read)) { machine, command, actions in machine.idle(command, &actions) },
        ServerCommand(spec: MPDCommandSpec("notcommands", 0...0, [])) { machine, _, actions in
            machine.listCommands(permitted: false, &actions)
        },
        ServerCommand(spec: MPDCommandSpec("password", 1...1, [])) { machine, command, actions in
            machine.checkPassword(command.arguments[0], &actions)
        },
        ServerCommand(spec: MPDCommandSpec("ping", 0...0, [])) { machine, _, actions in machine.commandDone(&actions) },
    ]

    /// The rows of `serverCommandTable`, for whoever lists or checks every command.
    public static var serverCommands: [MPDCommandSpec] { serverCommandTable.map(\.spec) }

    /// `commands` lists what this client may run now, `notcommands` the rest, each in MPD's order.
    private mutating func listCommands(permitted: Bool, _ actions: inout [Action]) {
        let listed = allCommands.filter { isPermitted($0) == permitted }
        actions.append(.send(MPDResponseEncoder.fields(MPDResponse(listed.map { .init("command", $0) }))))
        commandDone(&actions)
    }

    private mutating func checkPassword(_ given: String, _ actions: inout [Action]) {
        guard let password, given == password else {
            refuse(MPDAck(.password, "incorrect password", command: "password"), &actions)
            return
        }
        authenticate()
        commandDone(&actions)
    }

    /// Waits for the named subsystems (every one when none is named); never inside a list, whose
    /// answer could not end.
    private mutating func idle(_ command: MPDCommand, _ actions: inout [Action]) {
        guard run?.isList == false else {
            refuse(MPDAck(.argument, "idle is not allowed in a command list", command: "idle"), &actions)
            return
        }
        var subscriptions = Set<MPDSubsystem>()
        for argument in command.arguments {
            guard let subsystem = MPDSubsystem(protocolName: argument) else {
                refuse(MPDAck(.argument, "Unrecognized idle event: \(argument)", command: "idle"), &actions)
                return
            }
            subscriptions.insert(subsystem)
        }
        enterIdle(subscriptions.isEmpty ? Set(MPDSubsystem.allCases) : subscriptions, &actions)
    }
}
