import Logging
import MPDProtocol
import NIOCore

/// One client on its event loop: feeds what it reads to the connection's state machine and does
/// what the machine says (write, ask the backend, run or stop the silence timer, close). The
/// backend's answers and the player's changes come back to the event loop before they reach it.
final class MPDConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var machine: MPDConnectionStateMachine
    private let backend: any MPDBackend
    /// The client-to-client messages every connection of the server shares.
    private let messages: MPDMessageExchange
    /// This connection on `messages`, from when it is active until it closes.
    private var messageClient: MPDMessageBoard.ClientID?
    private let logger: Logger
    private var context: ChannelHandlerContext?
    private var timeout: Scheduled<Void>?
    private var changesTask: Task<Void, Never>?
    /// The backend call in flight; the machine asks for one at a time.
    private var executionTask: Task<Void, Never>?
    private var lastWrite: EventLoopFuture<Void>?
    /// A command held back while the client does not read what was already sent, so a client
    /// that only writes cannot make the server queue answers without bound.
    private var heldCommand: MPDCommand?

    /// - Parameter isLocal: the client came in on the local socket (a Unix-domain connection),
    ///   the one place MPD answers `config`.
    init(backend: any MPDBackend, password: String?, limits: MPDLimits, messages: MPDMessageExchange, isLocal: Bool, logger: Logger) {
        self.backend = backend
        self.messages = messages
        self.machine = MPDConnectionStateMachine(
            password: password, commands: backend.commandSpecs, tagTypes: backend.tagTypes, limits: limits,
            localConfiguration: isLocal ? backend.localConfiguration : nil)
        self.logger = logger
    }

    func channelActive(context: ChannelHandlerContext) {
        self.context = context
        let changes = backend.changes()
        let loop = context.eventLoop
        let bound = NIOLoopBound(self, eventLoop: loop)
        changesTask = Task {
            for await subsystem in changes {
                loop.execute { bound.value.perform { $0.changed(subsystem) } }
            }
        }
        messageClient = messages.join { subsystem in
            loop.execute { bound.value.perform { $0.changed(subsystem) } }
        }
        perform { $0.connectionOpened() }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.context = nil
        timeout?.cancel()
        timeout = nil
        changesTask?.cancel()
        executionTask?.cancel()
        if let messageClient { messages.leave(messageClient) }
        messageClient = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        perform { $0.received(buffer.readableBytesView) }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, let command = heldCommand {
            heldCommand = nil
            execute(command, context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.debug("MPD connection failed", metadata: ["error": "\(error)"])
        context.close(promise: nil)
    }

    /// Applies one event to the machine and carries out the actions it returns.
    private func perform(_ event: (inout MPDConnectionStateMachine) -> [MPDConnectionStateMachine.Action]) {
        guard let context else { return }
        let actions = event(&machine)
        var wrote = false
        for action in actions {
            switch action {
            case .send(let bytes):
                guard !bytes.isEmpty else { continue }
                lastWrite = context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)))
                wrote = true
            case .execute(let command):
                if context.channel.isWritable {
                    execute(command, context: context)
                } else {
                    heldCommand = command
                }
            case .armTimeout(let duration):
                timeout?.cancel()
                let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
                timeout = context.eventLoop.scheduleTask(in: Self.timeAmount(duration)) {
                    bound.value.timeout = nil
                    bound.value.timedOut()
                }
            case .disarmTimeout:
                timeout?.cancel()
                timeout = nil
            case .close:
                close(context: context)
                return
            }
        }
        if wrote { context.flush() }
    }

    private func timedOut() {
        logger.info("MPD client closed after its silence timeout")
        perform { $0.timeoutFired() }
    }

    private func execute(_ command: MPDCommand, context: ChannelHandlerContext) {
        let backend = self.backend
        let loop = context.eventLoop
        let bound = NIOLoopBound(self, eventLoop: loop)
        if MPDMessageBoard.commandNames.contains(command.name), let messageClient {
            // Answered at once by the shared board; reported on the next turn of the loop, as a
            // backend's answer is, so the actions of this turn are all carried out first.
            let result = messages.run(command, from: messageClient)
            loop.execute {
                switch result {
                case .success(let response): bound.value.perform { $0.commandSucceeded(response) }
                case .failure(let ack): bound.value.perform { $0.commandFailed(ack) }
                }
            }
            return
        }
        executionTask = Task {
            let result: Result<MPDResponse, MPDAck>
            do throws(MPDAck) {
                result = .success(try await backend.execute(command))
            } catch {
                result = .failure(error)
            }
            loop.execute {
                switch result {
                case .success(let response): bound.value.perform { $0.commandSucceeded(response) }
                case .failure(let ack): bound.value.perform { $0.commandFailed(ack) }
                }
            }
        }
    }

    /// Closes once everything written before has left.
    private func close(context: ChannelHandlerContext) {
        context.flush()
        let channel = context.channel
        if let lastWrite {
            lastWrite.whenComplete { _ in channel.close(promise: nil) }
        } else {
            channel.close(promise: nil)
        }
    }

    static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
