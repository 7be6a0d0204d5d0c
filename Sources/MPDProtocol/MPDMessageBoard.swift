/// The client-to-client messages of every connection, as a value: MPD's `subscribe`,
/// `unsubscribe`, `channels`, `readmessages` and `sendmessage` decided without I/O. The server
/// keeps one board for all its connections (the only state they share), runs each of these
/// commands on it, and tells the connections the outcome names whom to wake.
public struct MPDMessageBoard: Sendable {
    /// A connection, as the server numbers them.
    public typealias ClientID = Int

    /// What one command did: its answer, and who must be told of it.
    public struct Outcome: Sendable, Hashable {
        public var result: Result<MPDResponse, MPDAck>
        /// The set of channels changed: every connection is told `changed: subscription`, the
        /// sender too, as MPD emits it to the whole partition.
        public var subscriptionChanged = false
        /// The connections to tell `changed: message`.
        public var messaged: [ClientID] = []

        init(_ result: Result<MPDResponse, MPDAck>) { self.result = result }
    }

    /// The commands this board answers; the connection hands them to the server, not to the backend.
    public static let commandNames: Set<String> = ["channels", "readmessages", "sendmessage", "subscribe", "unsubscribe"]

    private var boxes: [ClientID: MPDMessageBox] = [:]

    public init() {}

    /// A connection leaves: its subscriptions and unread messages go with it. MPD tells nobody
    /// (its `UnsubscribeAll` emits no idle event), and neither does this.
    public mutating func remove(_ client: ClientID) {
        boxes[client] = nil
    }

    /// Every channel someone subscribed to, sorted by bytes as MPD's `std::set` sorts them.
    public var channels: [String] {
        Set(boxes.values.flatMap(\.subscriptions)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    public func box(of client: ClientID) -> MPDMessageBox { boxes[client] ?? MPDMessageBox() }

    /// Runs one of `commandNames` for `client`; the arguments were counted against the
    /// command's spec before.
    public mutating func run(_ command: MPDCommand, from client: ClientID) -> Outcome {
        let arguments = command.arguments
        do throws(MPDAck) {
            switch (command.name, arguments.count) {
            case ("subscribe", 1):
                try boxes[client, default: MPDMessageBox()].subscribe(arguments[0])
                var outcome = Outcome(.success(.empty))
                outcome.subscriptionChanged = true
                return outcome
            case ("unsubscribe", 1):
                try boxes[client, default: MPDMessageBox()].unsubscribe(arguments[0])
                var outcome = Outcome(.success(.empty))
                outcome.subscriptionChanged = true
                return outcome
            case ("channels", 0):
                return Outcome(.success(MPDResponse(channels.map { .init("channel", $0) })))
            case ("readmessages", 0):
                let messages = boxes[client]?.takeMessages() ?? []
                return Outcome(.success(MPDResponse(messages.flatMap { [.init("channel", $0.channel), .init("message", $0.text)] })))
            case ("sendmessage", 2):
                return try send(MPDMessageBox.Message(channel: arguments[0], text: arguments[1]))
            default:
                throw MPDAck(.unknown, "unknown command \"\(command.name)\"")
            }
        } catch {
            return Outcome(.failure(MPDAck(error.code, error.message, command: command.name)))
        }
    }

    /// Offers the message to every connection (the sender's own included, when it subscribed);
    /// "nobody is subscribed" when none took it, also when every subscriber's box was full.
    private mutating func send(_ message: MPDMessageBox.Message) throws(MPDAck) -> Outcome {
        guard MPDChannelName.isValid(message.channel) else { throw MPDAck(.argument, "invalid channel name") }
        var outcome = Outcome(.success(.empty))
        var taken = false
        for client in boxes.keys.sorted() {
            guard let pushed = boxes[client]?.push(message) else { continue }
            taken = taken || pushed.taken
            if pushed.wakes { outcome.messaged.append(client) }
        }
        guard taken else { throw MPDAck(.noExist, "nobody is subscribed to this channel") }
        return outcome
    }
}
