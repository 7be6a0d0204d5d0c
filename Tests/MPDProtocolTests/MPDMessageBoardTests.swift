import MPDProtocol
import Testing

/// The client-to-client messages decided as mpd 0.23 decides them: names, limits, who is woken,
/// and the ACKs word for word.
@Suite("MPD message board")
struct MPDMessageBoardTests {
    static func ack(_ outcome: MPDMessageBoard.Outcome) -> String? {
        guard case .failure(let ack) = outcome.result else { return nil }
        return ack.line
    }

    static func fields(_ outcome: MPDMessageBoard.Outcome) -> [String] {
        guard case .success(let response) = outcome.result else { return ["not an answer"] }
        return response.fields.map { "\($0.key): \($0.value)" }
    }

    @Test func channelNamesAreMPDs() {
        for name in ["a", "ok-_.:Z9", "0", "x.y:z"] { #expect(MPDChannelName.isValid(name), "\(name)") }
        for name in ["", "a/b", "bad ch", "é", "a\nb", "a\"b", "tab\t"] { #expect(!MPDChannelName.isValid(name), "\(name)") }
    }

    @Test func subscribingTellsEveryoneAndChannelsListsTheUnionSorted() {
        var board = MPDMessageBoard()
        let subscribed = board.run(MPDCommand("subscribe", ["zeta"]), from: 1)
        #expect(Self.ack(subscribed) == nil)
        #expect(subscribed.subscriptionChanged)
        _ = board.run(MPDCommand("subscribe", ["Alpha"]), from: 2)
        _ = board.run(MPDCommand("subscribe", ["zeta"]), from: 2)
        #expect(Self.fields(board.run(MPDCommand("channels"), from: 3)) == ["channel: Alpha", "channel: zeta"])
        let left = board.run(MPDCommand("unsubscribe", ["zeta"]), from: 1)
        #expect(left.subscriptionChanged)
        #expect(Self.fields(board.run(MPDCommand("channels"), from: 3)) == ["channel: Alpha", "channel: zeta"])
        board.remove(2)
        #expect(Self.fields(board.run(MPDCommand("channels"), from: 3)) == [])
    }

    @Test func refusalsAreMPDsWords() {
        var board = MPDMessageBoard()
        #expect(Self.ack(board.run(MPDCommand("subscribe", ["a/b"]), from: 1)) == "ACK [2@0] {subscribe} invalid channel name")
        #expect(Self.ack(board.run(MPDCommand("subscribe", [""]), from: 1)) == "ACK [2@0] {subscribe} invalid channel name")
        _ = board.run(MPDCommand("subscribe", ["c"]), from: 1)
        let again = board.run(MPDCommand("subscribe", ["c"]), from: 1)
        #expect(Self.ack(again) == "ACK [56@0] {subscribe} already subscribed to this channel")
        #expect(!again.subscriptionChanged)
        #expect(Self.ack(board.run(MPDCommand("unsubscribe", ["nope"]), from: 1)) == "ACK [50@0] {unsubscribe} not subscribed to this channel")
        #expect(Self.ack(board.run(MPDCommand("sendmessage", ["bad ch", "hi"]), from: 1)) == "ACK [2@0] {sendmessage} invalid channel name")
        #expect(
            Self.ack(board.run(MPDCommand("sendmessage", ["nobody", "hi"]), from: 1)) == "ACK [50@0] {sendmessage} nobody is subscribed to this channel")
    }

    @Test func theSeventeenthSubscriptionIsRefused() {
        var board = MPDMessageBoard()
        for i in 0..<MPDMessageBox.maxSubscriptions { #expect(Self.ack(board.run(MPDCommand("subscribe", ["c\(i)"]), from: 1)) == nil) }
        #expect(Self.ack(board.run(MPDCommand("subscribe", ["c99"]), from: 1)) == "ACK [56@0] {subscribe} subscription list is full")
        // Full is checked before "already", as mpd checks it.
        #expect(Self.ack(board.run(MPDCommand("subscribe", ["c0"]), from: 1)) == "ACK [56@0] {subscribe} subscription list is full")
        #expect(board.box(of: 1).subscriptions.count == 16)
        // Another client has its own sixteen.
        #expect(Self.ack(board.run(MPDCommand("subscribe", ["c99"]), from: 2)) == nil)
    }

    @Test func aMessageReachesEverySubscriberOnceAndWakesOnlyAnEmptyBox() {
        var board = MPDMessageBoard()
        _ = board.run(MPDCommand("subscribe", ["news"]), from: 1)
        _ = board.run(MPDCommand("subscribe", ["news"]), from: 2)
        _ = board.run(MPDCommand("subscribe", ["other"]), from: 3)
        let first = board.run(MPDCommand("sendmessage", ["news", "one"]), from: 3)
        #expect(Self.ack(first) == nil)
        #expect(first.messaged == [1, 2])
        #expect(!first.subscriptionChanged)
        // Not read yet: mpd does not tell `message` again.
        #expect(board.run(MPDCommand("sendmessage", ["news", "two"]), from: 3).messaged == [])
        #expect(Self.fields(board.run(MPDCommand("readmessages"), from: 1)) == ["channel: news", "message: one", "channel: news", "message: two"])
        #expect(Self.fields(board.run(MPDCommand("readmessages"), from: 1)) == [])
        #expect(board.run(MPDCommand("sendmessage", ["news", "three"]), from: 3).messaged == [1])
        #expect(Self.fields(board.run(MPDCommand("readmessages"), from: 3)) == [])
    }

    @Test func aSubscriberWithSixtyFourUnreadIsSkipped() {
        var board = MPDMessageBoard()
        _ = board.run(MPDCommand("subscribe", ["c"]), from: 1)
        for i in 0..<MPDMessageBox.maxPendingMessages { #expect(Self.ack(board.run(MPDCommand("sendmessage", ["c", "m\(i)"]), from: 2)) == nil) }
        #expect(Self.ack(board.run(MPDCommand("sendmessage", ["c", "lost"]), from: 2)) == "ACK [50@0] {sendmessage} nobody is subscribed to this channel")
        _ = board.run(MPDCommand("subscribe", ["c"]), from: 3)
        #expect(board.run(MPDCommand("sendmessage", ["c", "kept"]), from: 2).messaged == [3])
        let read = Self.fields(board.run(MPDCommand("readmessages"), from: 1))
        #expect(read.count == 128)
        #expect(read.last == "message: m63")
    }

    @Test func theSenderGetsItsOwnMessageWhenSubscribed() {
        var board = MPDMessageBoard()
        _ = board.run(MPDCommand("subscribe", ["self"]), from: 7)
        #expect(board.run(MPDCommand("sendmessage", ["self", "hi"]), from: 7).messaged == [7])
        #expect(Self.fields(board.run(MPDCommand("readmessages"), from: 7)) == ["channel: self", "message: hi"])
    }
}

/// How a connection treats the message commands and `config`.
@Suite("MPD connection: messages and config")
struct MPDConnectionMessagesTests {
    @Test func messageCommandsAreHandedToTheServerWithTheirPermissions() {
        var connection = Connection()
        #expect(connection.send("subscribe news\n") == "")
        #expect(connection.executed == [MPDCommand("subscribe", ["news"])])
        #expect(connection.succeed() == "OK\n")
        #expect(connection.send("sendmessage news\n") == "ACK [2@0] {sendmessage} wrong number of arguments for \"sendmessage\"\n")
        #expect(connection.send("readmessages\n") == "")
        #expect(connection.succeed([.init("channel", "news"), .init("message", "hi")]) == "channel: news\nmessage: hi\nOK\n")
        var locked = Connection(password: "secret")
        #expect(locked.send("subscribe news\n") == "ACK [4@0] {subscribe} you don't have permission for \"subscribe\"\n")
        #expect(locked.executed.isEmpty)
    }

    @Test func idleWaitsForMessageAndSubscription() {
        var connection = Connection()
        #expect(connection.send("idle message\n") == "")
        #expect(connection.change(.subscription) == "")
        #expect(connection.change(.message) == "changed: message\nOK\n")
        // Answering forgets every pending change, as mpd does: the next idle waits for a new one.
        #expect(connection.send("idle subscription\n") == "")
        #expect(connection.change(.subscription) == "changed: subscription\nOK\n")
    }

    @Test func configAnswersOnlyALocalClient() {
        var remote = Connection()
        #expect(remote.send("config\n") == "ACK [4@0] {config} Command only permitted to local clients\n")
        var local = MPDConnectionStateMachine(
            password: nil, backendCommands: [], localConfiguration: MPDResponse([.init("music_directory", "/music")]))
        _ = local.connectionOpened()
        let answer = local.received(Array("config\n".utf8)).compactMap { action -> String? in
            guard case .send(let bytes) = action else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(answer.joined() == "music_directory: /music\nOK\n")
        var locked = MPDConnectionStateMachine(password: "pw", backendCommands: [], localConfiguration: .empty)
        _ = locked.connectionOpened()
        let refused = locked.received(Array("config\n".utf8))
        #expect(refused.contains(.send(Array("ACK [4@0] {config} you don't have permission for \"config\"\n".utf8))))
    }
}
