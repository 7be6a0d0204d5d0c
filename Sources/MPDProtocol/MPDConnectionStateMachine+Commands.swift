extension MPDConnectionStateMachine {
    /// Whether this client may run `name` now: everything without a password, only the commands
    /// that need no permission before `password` succeeded.
    public func isPermitted(_ name: String) -> Bool {
        isAuthenticated || Self.commandsWithoutPermission.contains(name)
    }

    /// Every command this server knows, sorted as MPD's table is.
    public var allCommands: [String] { Self.serverCommands.union(backendCommands).sorted() }

    /// Runs the current request's next command: the server's own commands here, the backend's
    /// through an `execute` action; ends the run with `OK` when every command succeeded.
    mutating func advanceRun(_ actions: inout [Action]) {
        guard var current = run else { return }
        guard current.index < current.lines.count else {
            setRun(nil)
            actions.append(.send(MPDResponseEncoder.ok))
            markRestart()
            return
        }
        let line = current.lines[current.index]
        let command: MPDCommand
        do {
            command = try MPDRequestParser.parse(line, limits: limits)
        } catch {
            var ack = error.ack
            ack.listIndex = current.index
            fail(ack, closing: error.closesConnection, &actions)
            return
        }
        current.current = command
        setRun(current)
        let name = command.name
        guard Self.serverCommands.contains(name) || backendCommands.contains(name) else {
            refuse(MPDAck(.unknown, "unknown command \"\(name)\""), &actions)
            return
        }
        guard isPermitted(name) else {
            refuse(MPDAck(.permission, "you don't have permission for \"\(name)\"", command: name), &actions)
            return
        }
        guard Self.serverCommands.contains(name) else {
            setExecuting()
            actions.append(.execute(command))
            return
        }
        runServerCommand(command, &actions)
    }

    /// The answer to one command is complete: `list_OK` in a list that asks for it, then the next command.
    mutating func commandDone(_ actions: inout [Action]) {
        guard var current = run else { return }
        if current.sendsListOK { actions.append(.send(MPDResponseEncoder.listOK)) }
        current.index += 1
        current.current = nil
        setRun(current)
    }

    private mutating func refuse(_ ack: MPDAck, _ actions: inout [Action]) {
        var answer = ack
        answer.listIndex = run?.index ?? 0
        fail(answer, closing: false, &actions)
    }

    private mutating func runServerCommand(_ command: MPDCommand, _ actions: inout [Action]) {
        let name = command.name
        func wrongCount() { refuse(MPDAck(.argument, "wrong number of arguments for \"\(name)\"", command: name), &actions) }
        switch name {
        case "ping":
            guard command.arguments.isEmpty else { return wrongCount() }
            commandDone(&actions)
        case "close":
            // Answers nothing: what came before is written, then the connection ends.
            closeQuietly(&actions)
        case "commands", "notcommands":
            guard command.arguments.isEmpty else { return wrongCount() }
            let listed = allCommands.filter { isPermitted($0) == (name == "commands") }
            actions.append(.send(MPDResponseEncoder.fields(MPDResponse(listed.map { .init("command", $0) }))))
            commandDone(&actions)
        case "password":
            guard command.arguments.count == 1 else { return wrongCount() }
            guard let password, command.arguments[0] == password else {
                refuse(MPDAck(.password, "incorrect password", command: name), &actions)
                return
            }
            authenticate()
            commandDone(&actions)
        case "idle":
            guard run?.isList == false else {
                refuse(MPDAck(.argument, "idle is not allowed in a command list", command: name), &actions)
                return
            }
            var subscriptions = Set<MPDSubsystem>()
            for argument in command.arguments {
                guard let subsystem = MPDSubsystem(protocolName: argument) else {
                    refuse(MPDAck(.argument, "Unrecognized idle event: \(argument)", command: name), &actions)
                    return
                }
                subscriptions.insert(subsystem)
            }
            enterIdle(subscriptions.isEmpty ? Set(MPDSubsystem.allCases) : subscriptions, &actions)
        default:
            refuse(MPDAck(.unknown, "unknown command \"\(name)\""), &actions)
        }
    }
}
