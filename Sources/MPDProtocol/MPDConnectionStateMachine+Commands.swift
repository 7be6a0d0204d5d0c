extension MPDConnectionStateMachine {
    /// What this client holds: every permission without a password or once `password`
    /// succeeded, none before.
    public var permission: MPDPermission { isAuthenticated ? .all : [] }

    /// Whether this client may run `name` now: it holds every permission the command needs.
    public func isPermitted(_ name: String) -> Bool {
        guard let spec = commands[name] else { return false }
        return permission.isSuperset(of: spec.permission)
    }

    /// Every command this server knows, sorted as MPD's table is.
    public var allCommands: [String] { MPDCommandSpec.sortedNames(commands.values) }

    /// Runs the current request's next command, checked as MPD checks it (known, permitted,
    /// the right number of arguments, in that order): the server's own commands here, the
    /// backend's through an `execute` action; ends the run with `OK` when every command succeeded.
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
        guard let spec = commands[name] else {
            refuse(MPDAck(.unknown, "unknown command \"\(name)\""), &actions)
            return
        }
        guard permission.isSuperset(of: spec.permission) else {
            refuse(MPDAck(.permission, "you don't have permission for \"\(name)\"", command: name), &actions)
            return
        }
        if let refusal = spec.arity.refusal(count: command.arguments.count, command: name) {
            refuse(refusal, &actions)
            return
        }
        guard let own = Self.serverCommandTable.first(where: { $0.spec.name == name }) else {
            handOver(command, &actions)
            return
        }
        own.run(&self, command, &actions)
    }

    /// Asks the server for the answer (`execute`, always the last action) with this client's
    /// settings, and waits for `commandSucceeded` or `commandFailed`.
    mutating func handOver(_ command: MPDCommand, _ actions: inout [Action]) {
        setExecuting()
        var asked = command
        asked.client = client
        actions.append(.execute(asked))
    }

    /// The answer to one command is complete: `list_OK` in a list that asks for it, then the next command.
    mutating func commandDone(_ actions: inout [Action]) {
        guard var current = run else { return }
        if current.sendsListOK { actions.append(.send(MPDResponseEncoder.listOK)) }
        current.index += 1
        current.current = nil
        setRun(current)
    }

    /// Answers the current command with an ACK at its place in the list; the rest of a list is skipped.
    mutating func refuse(_ ack: MPDAck, _ actions: inout [Action]) {
        var answer = ack
        answer.listIndex = run?.index ?? 0
        fail(answer, closing: false, &actions)
    }
}
