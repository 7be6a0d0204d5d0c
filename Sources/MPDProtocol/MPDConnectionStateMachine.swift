/// One client connection as a value: bytes and backend results in, actions out. It frames lines
/// within the limits, collects command lists, runs the server's own commands itself and hands the
/// others to the backend one at a time, keeps the changes the client has not been told of, and
/// decides when the silence timer runs. The server performs the actions and reports back; nothing
/// here does I/O or reads a clock, so every rule is testable and fuzzable without a socket.
public struct MPDConnectionStateMachine: Sendable {
    /// What the server does next, in order. An `execute` is always the last action of a batch:
    /// the machine waits for `commandSucceeded` or `commandFailed` before anything else.
    public enum Action: Sendable, Hashable {
        case send([UInt8])
        /// Ask the backend; report the outcome with `commandSucceeded` or `commandFailed`. The
        /// client-to-client messages (`MPDMessageBoard.commandNames`) are asked of the server's
        /// one message board instead, which every connection shares.
        case execute(MPDCommand)
        /// (Re)start the silence timer; when it fires, call `timeoutFired`.
        case armTimeout(Duration)
        case disarmTimeout
        /// Close the connection once what was sent before is written.
        case close
    }

    /// The protocol version in the greeting. 0.23.5 is what MPD 0.23.5 to 0.23.x announce (Debian
    /// 12's mpd among them), and the command set served here is the 0.23 one: clients such as
    /// mpc and ncmpcpp choose their requests by this number, so it must not promise later syntax.
    public static let protocolVersion = "0.23.5"

    struct CommandList {
        var sendsListOK: Bool
        var lines: [[UInt8]] = []
        var bytes = 0
    }

    /// Requests being answered: one line, or a whole command list, and where it stands.
    struct Run {
        var lines: [[UInt8]]
        /// Whether this is a command list and whether each success is followed by `list_OK`.
        var isList: Bool
        var sendsListOK: Bool
        var index = 0
        var current: MPDCommand?
    }

    let password: String?
    /// Every command this connection knows, the server's own and the backend's, checked by one
    /// rule before any of them runs.
    let commands: [String: MPDCommandSpec]
    let limits: MPDLimits
    /// The tags the backend's songs carry (`MPDBackend.tagTypes`), in MPD's order.
    let tagTypes: [String]
    /// What `config` tells this client (`MPDBackend.localConfiguration`); nil for a client that is
    /// not local, which MPD refuses (it would learn where the listener's files are).
    let localConfiguration: MPDResponse?
    /// What this client set for itself (`binarylimit`, `tagtypes`), handed to the backend with
    /// each of its commands.
    public internal(set) var client = MPDClientState()

    private var input: [UInt8] = []
    private var inputStart = 0
    private var scanFrom = 0
    private(set) var commandList: CommandList?
    private(set) var run: Run?
    /// Waiting for the backend's answer to `run.current`.
    public private(set) var isExecuting = false
    /// The subsystems a waiting `idle` listens for; nil when the client is not idle.
    public private(set) var idleSubscriptions: Set<MPDSubsystem>?
    /// Changes since the client's last `idle` answer, reported at its next `idle`.
    public private(set) var pendingChanges: Set<MPDSubsystem> = []
    public private(set) var isAuthenticated: Bool
    public private(set) var isClosed = false
    private var timerArmed = false
    private var timerRestart = false

    /// - Parameters:
    ///   - password: the configured password; nil allows everything to everyone.
    ///   - commands: what the backend implements (`MPDBackend.commandSpecs`); a name the server
    ///     answers itself stays the server's.
    ///   - tagTypes: the tags the backend's songs carry (`MPDBackend.tagTypes`), what `tagtypes` lists.
    ///   - localConfiguration: what `config` answers; nil unless the client is on the local
    ///     socket (a Unix-domain connection), as MPD answers it only there.
    public init(
        password: String?, commands backend: [MPDCommandSpec], tagTypes: [String] = [], limits: MPDLimits = .standard,
        localConfiguration: MPDResponse? = nil
    ) {
        self.password = password
        self.localConfiguration = localConfiguration
        var commands = Dictionary(backend.map { ($0.name, $0) }) { first, _ in first }
        for entry in Self.serverCommandTable { commands[entry.spec.name] = entry.spec }
        self.commands = commands
        self.limits = limits
        self.tagTypes = MPDTagNames.ordered(tagTypes)
        self.isAuthenticated = password == nil
    }

    /// A backend known by its names alone: each needs `read` and takes any number of arguments,
    /// which its backend then checks itself.
    public init(
        password: String?, backendCommands: Set<String>, tagTypes: [String] = [], limits: MPDLimits = .standard,
        localConfiguration: MPDResponse? = nil
    ) {
        self.init(
            password: password, commands: backendCommands.map { MPDCommandSpec($0, 0..., .read) }, tagTypes: tagTypes, limits: limits,
            localConfiguration: localConfiguration)
    }

    public var isIdle: Bool { idleSubscriptions != nil }
    /// Inside `command_list_begin` … `command_list_end`, still collecting.
    public var isCollectingCommandList: Bool { commandList != nil }

    /// The greeting, and the silence timer started.
    public mutating func connectionOpened() -> [Action] {
        var actions: [Action] = [.send(MPDResponseEncoder.greeting(version: Self.protocolVersion))]
        timerRestart = true
        settleTimer(&actions)
        return actions
    }

    /// Bytes read from the client, in any chunking.
    public mutating func received(_ bytes: some Sequence<UInt8>) -> [Action] {
        guard !isClosed else { return [] }
        input.append(contentsOf: bytes)
        var actions: [Action] = []
        if input.count - inputStart > limits.maxBufferedInput {
            fail(MPDAck(.unknown, "Too much input sent ahead"), closing: true, &actions)
        } else {
            processInput(&actions)
        }
        settleTimer(&actions)
        return actions
    }

    /// The backend answered the command of the last `execute`.
    public mutating func commandSucceeded(_ response: MPDResponse) -> [Action] {
        guard !isClosed, isExecuting, run != nil else { return [] }
        isExecuting = false
        var actions: [Action] = [.send(MPDResponseEncoder.fields(response))]
        commandDone(&actions)
        processInput(&actions)
        settleTimer(&actions)
        return actions
    }

    /// The backend refused the command of the last `execute`; the rest of a list is skipped.
    public mutating func commandFailed(_ ack: MPDAck) -> [Action] {
        guard !isClosed, isExecuting, let current = run else { return [] }
        isExecuting = false
        var answer = ack
        if answer.command.isEmpty { answer.command = current.current?.name ?? "" }
        answer.listIndex = current.index
        run = nil
        var actions: [Action] = [.send(MPDResponseEncoder.ack(answer))]
        timerRestart = true
        processInput(&actions)
        settleTimer(&actions)
        return actions
    }

    /// Something changed in the player; an `idle` waiting for it is answered now, otherwise the
    /// change waits for the client's next `idle`.
    public mutating func changed(_ subsystem: MPDSubsystem) -> [Action] {
        guard !isClosed else { return [] }
        pendingChanges.insert(subsystem)
        var actions: [Action] = []
        if let subscriptions = idleSubscriptions, !pendingChanges.isDisjoint(with: subscriptions) {
            answerIdle(subscriptions, &actions)
            processInput(&actions)
        }
        settleTimer(&actions)
        return actions
    }

    /// The silence timer fired: a client that is neither idle nor waiting for an answer is closed.
    public mutating func timeoutFired() -> [Action] {
        guard !isClosed, timerArmed, !isIdle, !isExecuting else { return [] }
        isClosed = true
        timerArmed = false
        return [.close]
    }

    // MARK: Lines

    private mutating func processInput(_ actions: inout [Action]) {
        while !isClosed, !isExecuting {
            if run != nil {
                advanceRun(&actions)
                continue
            }
            guard let line = nextLine() else {
                if input.count - inputStart > limits.maxLineLength {
                    fail(MPDRequestError.lineTooLong.ack, closing: true, &actions)
                }
                return
            }
            guard line.count <= limits.maxLineLength else {
                fail(MPDRequestError.lineTooLong.ack, closing: true, &actions)
                return
            }
            timerRestart = true
            handle(line, &actions)
        }
    }

    /// The next complete line without its newline, or nil. Consumed bytes are dropped once they
    /// are the larger part of the buffer, so pipelined input costs linear time.
    private mutating func nextLine() -> ArraySlice<UInt8>? {
        guard let newline = input[max(scanFrom, inputStart)...].firstIndex(of: 0x0A) else {
            scanFrom = input.count
            return nil
        }
        let line = Array(input[inputStart..<newline])
        inputStart = newline + 1
        if inputStart == input.count {
            input.removeAll(keepingCapacity: true)
            inputStart = 0
        } else if inputStart > 4096, inputStart * 2 > input.count {
            input.removeFirst(inputStart)
            inputStart = 0
        }
        scanFrom = inputStart
        return line[...]
    }

    private mutating func handle(_ rawLine: ArraySlice<UInt8>, _ actions: inout [Action]) {
        let line = MPDRequestParser.trimmed(rawLine)
        guard let first = line.first else {
            fail(MPDRequestError.emptyLine.ack, closing: true, &actions)
            return
        }
        guard MPDRequestParser.isLowercaseLetter(first) else {
            fail(MPDRequestError.letterExpected.ack, closing: true, &actions)
            return
        }
        if line.elementsEqual("noidle".utf8) {
            // Without a waiting idle there is nothing to end: the client already has its answer.
            if idleSubscriptions != nil {
                idleSubscriptions = nil
                actions.append(.send(MPDResponseEncoder.ok))
            }
            return
        }
        if idleSubscriptions != nil {
            fail(MPDAck(.unknown, "Only noidle is allowed during idle"), closing: true, &actions)
            return
        }
        if var list = commandList {
            // Taken out while it grows, so appending to it never copies the lines collected.
            commandList = nil
            if line.elementsEqual("command_list_end".utf8) {
                run = Run(lines: list.lines, isList: true, sendsListOK: list.sendsListOK)
                return
            }
            // Counted as MPD counts it (the line without trailing white space, and one): a list
            // past the bound ends the connection without an answer, as MPD ends it.
            list.bytes += line.count + 1
            guard list.bytes <= limits.maxCommandListBytes else {
                closeQuietly(&actions)
                return
            }
            list.lines.append(Array(line))
            commandList = list
            return
        }
        if line.elementsEqual("command_list_begin".utf8) {
            commandList = CommandList(sendsListOK: false)
        } else if line.elementsEqual("command_list_ok_begin".utf8) {
            commandList = CommandList(sendsListOK: true)
        } else {
            run = Run(lines: [Array(line)], isList: false, sendsListOK: false)
        }
    }

    /// Answers with an ACK and, for a peer that cannot go on, closes.
    mutating func fail(_ ack: MPDAck, closing: Bool, _ actions: inout [Action]) {
        actions.append(.send(MPDResponseEncoder.ack(ack)))
        run = nil
        timerRestart = true
        if closing {
            isClosed = true
            actions.append(.close)
        }
    }

    mutating func closeQuietly(_ actions: inout [Action]) {
        run = nil
        isClosed = true
        actions.append(.close)
    }

    // MARK: Idle and the timer

    mutating func enterIdle(_ subscriptions: Set<MPDSubsystem>, _ actions: inout [Action]) {
        run = nil
        if pendingChanges.isDisjoint(with: subscriptions) {
            idleSubscriptions = subscriptions
        } else {
            answerIdle(subscriptions, &actions)
        }
    }

    /// MPD reports the changes the client listens for and forgets every pending one.
    private mutating func answerIdle(_ subscriptions: Set<MPDSubsystem>, _ actions: inout [Action]) {
        actions.append(.send(MPDResponseEncoder.idleAnswer(pendingChanges.intersection(subscriptions))))
        pendingChanges = []
        idleSubscriptions = nil
        timerRestart = true
    }

    /// The timer runs while the server waits for the client's next request, and restarts on each line and each answer.
    private mutating func settleTimer(_ actions: inout [Action]) {
        let wanted = !isClosed && !isIdle && !isExecuting
        var timer: Action?
        if wanted, !timerArmed || timerRestart {
            timer = .armTimeout(limits.silenceTimeout)
            timerArmed = true
        } else if !wanted, timerArmed {
            if !isClosed { timer = .disarmTimeout }
            timerArmed = false
        }
        timerRestart = false
        guard let timer else { return }
        // An `execute` stays last: the timer is settled before the backend is asked.
        if case .execute = actions.last {
            actions.insert(timer, at: actions.count - 1)
        } else {
            actions.append(timer)
        }
    }

    mutating func setRun(_ value: Run?) { run = value }
    mutating func setExecuting() { isExecuting = true }
    mutating func authenticate() { isAuthenticated = true }
    mutating func markRestart() { timerRestart = true }
}
