import Foundation
import Logging
import MPDProtocol
import MPDServer
import NIOCore
import NIOPosix
import Synchronization

/// A backend of the test's own: it answers a few commands with fixed fields and records every
/// command it is asked, so a test sees exactly what crossed the server.
final class RecordingBackend: MPDBackend {
    let commandSpecs = ["status", "currentsong", "play", "pause", "stop", "setvol", "outputs", "stats", "add", "clear"].map {
        MPDCommandSpec($0, 0..., .read)
    }
    private let asked = Mutex<[MPDCommand]>([])
    private let continuations = Mutex<[AsyncStream<MPDSubsystem>.Continuation]>([])
    private let gate = Mutex<(released: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))
    private let askedContinuation: AsyncStream<MPDCommand>.Continuation
    /// Every command as it reaches the backend, before it is answered.
    let askedStream: AsyncStream<MPDCommand>
    let holdsPlay: Bool

    init(holdsPlay: Bool = false) {
        self.holdsPlay = holdsPlay
        (askedStream, askedContinuation) = AsyncStream<MPDCommand>.makeStream()
    }

    var commands: [MPDCommand] { asked.withLock { $0 } }
    var subscribers: Int { continuations.withLock { $0.count } }

    func execute(_ command: MPDCommand) async throws(MPDAck) -> MPDResponse {
        asked.withLock { $0.append(command) }
        askedContinuation.yield(command)
        switch command.name {
        case "status":
            return MPDResponse([
                .init("volume", "42"), .init("repeat", "0"), .init("random", "0"), .init("single", "0"), .init("consume", "0"),
                .init("playlist", "3"), .init("playlistlength", "0"), .init("mixrampdb", "0.000000"), .init("state", "stop"),
            ])
        case "currentsong", "stop", "clear", "pause", "setvol":
            return .empty
        case "outputs":
            return MPDResponse([
                .init("outputid", "0"), .init("outputname", "Test output\nOK"), .init("plugin", "pulse"), .init("outputenabled", "1"),
            ])
        case "play":
            if holdsPlay {
                await withCheckedContinuation { continuation in
                    gate.withLock { state in
                        if state.released { continuation.resume() } else { state.waiter = continuation }
                    }
                }
            }
            throw MPDAck(.noExist, "No such song")
        default:
            throw MPDAck(.argument, "not in this test")
        }
    }

    /// Lets a held `play` finish.
    func release() {
        gate.withLock { state in
            state.released = true
            state.waiter?.resume()
            state.waiter = nil
        }
    }

    func changes() -> AsyncStream<MPDSubsystem> {
        let (stream, continuation) = AsyncStream<MPDSubsystem>.makeStream()
        continuations.withLock { $0.append(continuation) }
        return stream
    }

    func emit(_ subsystem: MPDSubsystem) { continuations.withLock { $0.forEach { $0.yield(subsystem) } } }
}

/// Collects log messages so a test can read what the server logged.
final class LogRecorder: LogHandler, @unchecked Sendable {
    private let messages = Mutex<[String]>([])
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) {
        let text = "\(event.message) \(event.metadata ?? [:])"
        messages.withLock { $0.append(text) }
    }
    var lines: [String] { messages.withLock { $0 } }
}

/// A raw protocol client over a real socket, reading answers with MPDProtocol's reader.
final class TestClient: @unchecked Sendable {
    private let channel: any Channel
    private var iterator: AsyncStream<ByteBuffer>.AsyncIterator
    private var reader = MPDAnswerReader()

    private init(channel: any Channel, stream: AsyncStream<ByteBuffer>) {
        self.channel = channel
        self.iterator = stream.makeAsyncIterator()
    }

    static func connect(to endpoint: MPDEndpoint) async throws -> TestClient {
        let (stream, continuation) = AsyncStream<ByteBuffer>.makeStream()
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Collector(continuation)) }
        }
        let channel: any Channel
        switch endpoint {
        case .tcp(let host, let port): channel = try await bootstrap.connect(host: host, port: port).get()
        case .unixSocket(let path): channel = try await bootstrap.connect(unixDomainSocketPath: path).get()
        }
        return TestClient(channel: channel, stream: stream)
    }

    func send(_ text: String) async throws {
        try await channel.writeAndFlush(channel.allocator.buffer(string: text)).get()
    }

    func sendBytes(_ bytes: [UInt8]) async throws {
        try await channel.writeAndFlush(channel.allocator.buffer(bytes: bytes)).get()
    }

    /// The next event; nil when the server closed the connection first.
    func next() async throws -> MPDAnswerReader.Event? {
        while true {
            if let event = try reader.next() { return event }
            guard let buffer = await iterator.next() else { return nil }
            reader.feed(buffer.readableBytesView)
        }
    }

    /// Waits until the server closes the connection, ignoring what it still sends.
    func waitForClose() async {
        while await iterator.next() != nil {}
    }

    func close() async { try? await channel.close() }

    private final class Collector: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let continuation: AsyncStream<ByteBuffer>.Continuation
        init(_ continuation: AsyncStream<ByteBuffer>.Continuation) { self.continuation = continuation }
        func channelRead(context: ChannelHandlerContext, data: NIOAny) { continuation.yield(unwrapInboundIn(data)) }
        func channelInactive(context: ChannelHandlerContext) { continuation.finish() }
    }
}

/// A fresh directory under the system's temporary folder, for socket files.
func temporaryDirectory() throws -> URL {
    let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("mpd-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

func makeServer(
    _ backend: RecordingBackend, endpoints: [MPDEndpoint], password: String? = nil, limits: MPDLimits = .standard,
    logs: LogRecorder = LogRecorder()
) -> MPDServer {
    MPDServer(
        backend: backend, configuration: MPDServerConfiguration(endpoints: endpoints, password: password, limits: limits),
        logger: Logger(label: "mpd-test") { _ in logs })
}

/// Runs a program to its end, off the concurrency pool, and returns its exit status and output.
func run(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            do {
                try process.run()
            } catch {
                continuation.resume(throwing: error)
                return
            }
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            continuation.resume(returning: (process.terminationStatus, String(decoding: data, as: UTF8.self)))
        }
    }
}
