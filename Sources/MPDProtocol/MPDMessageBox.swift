/// One client's side of the client-to-client messages: the channels it subscribed to and the
/// messages sent on them that it has not read yet, each bounded as MPD bounds them, so a client
/// that subscribes and never reads costs the server a fixed amount of memory.
public struct MPDMessageBox: Sendable, Hashable {
    /// One message as `readmessages` tells it.
    public struct Message: Sendable, Hashable {
        public var channel: String
        public var text: String
        public init(channel: String, text: String) {
            self.channel = channel
            self.text = text
        }
    }

    /// MPD's `MAX_SUBSCRIPTIONS`: one more is "subscription list is full".
    public static let maxSubscriptions = 16
    /// MPD's `MAX_MESSAGES`: a client holding this many unread is skipped by `sendmessage`.
    public static let maxPendingMessages = 64

    public private(set) var subscriptions: Set<String> = []
    public private(set) var messages: [Message] = []

    public init() {}

    /// Subscribes to `channel`, checked in MPD's order: the name, then the room left, then
    /// whether the client already listens to it.
    public mutating func subscribe(_ channel: String) throws(MPDAck) {
        guard MPDChannelName.isValid(channel) else { throw MPDAck(.argument, "invalid channel name") }
        guard subscriptions.count < Self.maxSubscriptions else { throw MPDAck(.exist, "subscription list is full") }
        guard subscriptions.insert(channel).inserted else { throw MPDAck(.exist, "already subscribed to this channel") }
    }

    /// MPD does not check the name here: a name never subscribed to is simply not subscribed.
    public mutating func unsubscribe(_ channel: String) throws(MPDAck) {
        guard subscriptions.remove(channel) != nil else { throw MPDAck(.noExist, "not subscribed to this channel") }
    }

    /// Whether the message was taken: only on a subscribed channel and while there is room.
    /// `wakes` says whether the client should be told `changed: message`: MPD tells it only when
    /// the first unread message arrives, not for each one after it.
    public mutating func push(_ message: Message) -> (taken: Bool, wakes: Bool) {
        guard messages.count < Self.maxPendingMessages, subscriptions.contains(message.channel) else { return (false, false) }
        let wasEmpty = messages.isEmpty
        messages.append(message)
        return (true, wasEmpty)
    }

    /// Every unread message, oldest first; the box is empty afterwards.
    public mutating func takeMessages() -> [Message] {
        defer { messages = [] }
        return messages
    }
}
