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
        // What a connection sets for itself; MPD lets anyone set them (no permission).
        ServerCommand(spec: MPDCommandSpec("binarylimit", 1...1, [])) { machine, command, actions in
            machine.setBinaryLimit(command.arguments[0], &actions)
        },
        // `close` takes any words after it, as MPD's does, and answers nothing: what came before
        // is written, then the connection ends.
        // The client-to-client messages (MPD's permissions): answered by the server's one board,
        // which every connection shares, so the connection hands them over as it hands over the
        // backend's.
        ServerCommand(spec: MPDCommandSpec("channels", 0...0, .read)) { machine, command, actions in machine.handOver(command, &actions) },
        ServerCommand(spec: MPDCommandSpec("close", 0..., [])) { machine, _, actions in machine.closeQuietly(&actions) },
        ServerCommand(spec: MPDCommandSpec("commands", 0...0, [])) { machine, _, actions in machine.listCommands(permitted: true, &actions) },
        ServerCommand(spec: MPDCommandSpec("config", 0...0, .admin)) { machine, _, actions in machine.answerConfig(&actions) },
        ServerCommand(spec: MPDCommandSpec("idle", 0..., .read)) { machine, command, actions in machine.idle(command, &actions) },
        ServerCommand(spec: MPDCommandSpec("notcommands", 0...0, [])) { machine, _, actions in
            machine.listCommands(permitted: false, &actions)
        },
        ServerCommand(spec: MPDCommandSpec("password", 1...1, [])) { machine, command, actions in
            machine.checkPassword(command.arguments[0], &actions)
        },
        ServerCommand(spec: MPDCommandSpec("ping", 0...0, [])) { machine, _, actions in machine.commandDone(&actions) },
        ServerCommand(spec: MPDCommandSpec("readmessages", 0...0, .read)) { machine, command, actions in machine.handOver(command, &actions) },
        ServerCommand(spec: MPDCommandSpec("sendmessage", 2...2, .control)) { machine, command, actions in
            machine.handOver(command, &actions)
        },
        ServerCommand(spec: MPDCommandSpec("subscribe", 1...1, .read)) { machine, command, actions in machine.handOver(command, &actions) },
        ServerCommand(spec: MPDCommandSpec("tagtypes", 0..., [])) { machine, command, actions in machine.answerTagTypes(command, &actions) },
        ServerCommand(spec: MPDCommandSpec("unsubscribe", 1...1, .read)) { machine, command, actions in machine.handOver(command, &actions) },
    ]

    /// The rows of `serverCommandTable`, for whoever lists or checks every command.
    public static var serverCommands: [MPDCommandSpec] { serverCommandTable.map(\.spec) }

    /// `commands` lists what this client may run now, `notcommands` the rest, each in MPD's order.
    private mutating func listCommands(permitted: Bool, _ actions: inout [Action]) {
        let listed = allCommands.filter { isPermitted($0) == permitted }
        actions.append(.send(MPDResponseEncoder.fields(MPDResponse(listed.map { .init("command", $0) }))))
        commandDone(&actions)
    }

    /// `config` tells a local client where the music is; any other is refused with MPD's words,
    /// since the answer names a place on the listener's disk.
    private mutating func answerConfig(_ actions: inout [Action]) {
        guard let localConfiguration else {
            refuse(MPDAck(.permission, "Command only permitted to local clients", command: "config"), &actions)
            return
        }
        actions.append(.send(MPDResponseEncoder.fields(localConfiguration)))
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

    /// `binarylimit N`: the most bytes of a binary answer this client takes at once, from 64 to
    /// what the server's output can hold, in MPD's words when out of bounds.
    private mutating func setBinaryLimit(_ text: String, _ actions: inout [Action]) {
        do throws(MPDAck) {
            let value = try MPDArgumentParser.unsigned(text, max: limits.maxBinaryLimit)
            guard value >= MPDClientState.minimumBinaryLimit else { throw MPDAck(.argument, "Value too small") }
            client.binaryLimit = value
            commandDone(&actions)
        } catch {
            refuse(MPDAck(error.code, error.message, command: "binarylimit"), &actions)
        }
    }

    /// `tagtypes` lists the tags this client is sent; `all`, `clear`, `enable NAME…` and
    /// `disable NAME…` change them for this connection alone, as MPD does. A name is any of MPD's,
    /// whatever its case, even one this server's songs never carry.
    private mutating func answerTagTypes(_ command: MPDCommand, _ actions: inout [Action]) {
        guard let sub = command.arguments.first else {
            let shown = tagTypes.filter { client.shows(tag: $0) }
            actions.append(.send(MPDResponseEncoder.fields(MPDResponse(shown.map { .init("tagtype", $0) }))))
            commandDone(&actions)
            return
        }
        let names = command.arguments.dropFirst()
        do throws(MPDAck) {
            switch sub {
            case "all", "clear":
                guard names.isEmpty else { throw MPDAck(.argument, "Too many arguments") }
                client.hiddenTags = sub == "all" ? [] : Set(MPDTagNames.all)
            case "enable", "disable":
                guard !names.isEmpty else { throw MPDAck(.argument, "Not enough arguments") }
                var parsed: Set<String> = []
                for name in names {
                    guard let tag = MPDTagNames.canonical(name) else { throw MPDAck(.argument, "Unknown tag type") }
                    parsed.insert(tag)
                }
                if sub == "enable" { client.hiddenTags.subtract(parsed) } else { client.hiddenTags.formUnion(parsed) }
            default:
                throw MPDAck(.argument, "Unknown sub command")
            }
            commandDone(&actions)
        } catch {
            refuse(MPDAck(error.code, error.message, command: "tagtypes"), &actions)
        }
    }
}
