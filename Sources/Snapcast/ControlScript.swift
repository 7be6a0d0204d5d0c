import Foundation
import Logging
import MPDProtocol
import Synchronization

/// Snapcast's controlscript: reads the server's JSON-RPC requests line by line, answers them by
/// driving an MPD server (Tonearm's daemon or `mpd`), and notifies the server of every change
/// MPD reports through `idle`.
///
/// Two MPD connections: one waits in `idle` on a thread of its own and reads `status` and
/// `currentsong` after each change; the other carries the requests' commands. Either reconnects
/// when MPD goes away; meanwhile requests are answered with an error and the properties say
/// "stopped", so Snapcast's clients never show a player that is not there.
public final class ControlScript: Sendable {
    /// The subsystems whose changes are sent to the server.
    public static let subsystems = ["player", "mixer", "playlist", "options"]
    /// How long the watcher waits before connecting to MPD again.
    public static let reconnectDelay: Duration = .seconds(1)

    private let address: MPDConnection.Address
    private let emit: @Sendable (String) -> Void
    private let logger: Logger
    private let lastSent = Mutex<JSONValue?>(nil)
    private let commands = Mutex<MPDConnection?>(nil)

    /// - Parameters:
    ///   - address: the MPD server to drive.
    ///   - emit: writes one line to the server (stdout), whole lines from any thread.
    public init(address: MPDConnection.Address, logger: Logger, emit: @escaping @Sendable (String) -> Void) {
        self.address = address
        self.logger = logger
        self.emit = emit
    }

    /// Says the plugin is ready, starts watching MPD, and answers `readLine`'s lines until it
    /// returns nil (the server closed stdin).
    public func run(readLine: () -> String?) {
        emit(RPCMessage.ready)
        let watcher = Thread { [self] in watch() }
        watcher.name = "tonearm.snapcast-control.idle"
        watcher.start()
        while let line = readLine() {
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { continue }
            emit(answer(trimmed))
        }
    }

    /// The answer line for one request line.
    func answer(_ line: String) -> String {
        guard let request = RPCRequest(line: line) else {
            return RPCMessage.error(id: JSONValue(line: line)?["id"] ?? .null, .parseError, "Parse error")
        }
        do throws(MPDConnectionError) {
            let current = try withCommandConnection { connection throws(MPDConnectionError) in try Self.snapshot(connection) }
            switch ControlMapping.action(for: request, current: current) {
            case .fail(let code, let message):
                return RPCMessage.error(id: request.id, code, message)
            case .answerProperties:
                return RPCMessage.result(id: request.id, StreamProperties.of(current))
            case .run(let list):
                try withCommandConnection { connection throws(MPDConnectionError) in
                    for command in list { try connection.run(command) }
                }
                return RPCMessage.result(id: request.id, .string("ok"))
            }
        } catch {
            logger.warning("snapcast-control: \(error)")
            return RPCMessage.error(id: request.id, .internalError, error.description)
        }
    }

    /// Runs `body` on the command connection, connecting first when there is none; a connection
    /// that broke (MPD closes idle clients after its timeout) is replaced once.
    private func withCommandConnection<T>(_ body: (MPDConnection) throws(MPDConnectionError) -> T) throws(MPDConnectionError) -> T {
        for attempt in 0..<2 {
            let connection: MPDConnection
            if let existing = commands.withLock({ $0 }) {
                connection = existing
            } else {
                connection = try MPDConnection(address)
                commands.withLock { $0 = connection }
            }
            do {
                return try body(connection)
            } catch {
                guard case .io = error, attempt == 0 else { throw error }
                commands.withLock { $0 = nil }
            }
        }
        throw .io("unreachable")
    }

    static func snapshot(_ connection: MPDConnection) throws(MPDConnectionError) -> PlayerSnapshot {
        let status = try connection.run(MPDCommand("status"))
        let song = try connection.run(MPDCommand("currentsong"))
        return PlayerSnapshot(status: status.map { ($0.key, $0.value) }, song: song.map { ($0.key, $0.value) })
    }

    // MARK: Watching MPD

    /// Follows MPD for as long as the process runs: connects, and after a failure says once that
    /// MPD is gone and connects again a second later.
    private func watch() {
        var saidGone = false
        while true {
            do throws(MPDConnectionError) {
                try follow { saidGone = false }
            } catch {
                if !saidGone {
                    logger.warning("snapcast-control: \(error); retrying")
                    emit(RPCMessage.log("Warning", "Tonearm not reachable at \(address): \(error)"))
                    send(StreamProperties.of(PlayerSnapshot(status: [], song: [])))
                    saidGone = true
                }
                Thread.sleep(forTimeInterval: Double(Self.reconnectDelay.components.seconds))
            }
        }
    }

    /// Connects to MPD and sends the properties now and after every change it reports, until the
    /// connection fails (the error is the only way out).
    private func follow(connected: () -> Void) throws(MPDConnectionError) {
        let connection = try MPDConnection(address)
        logger.info("snapcast-control: connected to MPD \(connection.serverVersion) at \(address)")
        connected()
        while true {
            send(StreamProperties.of(try Self.snapshot(connection)))
            _ = try connection.idle(Self.subsystems)
        }
    }

    /// Sends the properties when they differ from the last sent.
    private func send(_ properties: JSONValue) {
        let changed = lastSent.withLock { last -> Bool in
            guard last != properties else { return false }
            last = properties
            return true
        }
        if changed { emit(RPCMessage.properties(properties)) }
    }
}
