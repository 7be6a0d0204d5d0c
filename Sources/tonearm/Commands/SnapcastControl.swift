import ArgumentParser
import Daemon
import Foundation
import PlayerKit
import Logging
import Snapcast

/// Snapcast's controlscript: snapserver starts it for a stream and talks JSON-RPC over its stdin
/// and stdout; it drives the running Tonearm daemon (or any MPD server) through the MPD protocol.
struct SnapcastControl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapcast-control",
        abstract: "Snapcast stream plugin: show what Tonearm plays in Snapcast and let its clients play, pause and skip.",
        discussion: """
            Started by snapserver as a stream's controlscript (through a wrapper script that adds \
            `snapcast-control`, see docs/USAGE.md). Speaks Snapcast's JSON-RPC on stdin and stdout \
            and drives the daemon over the MPD protocol: the user's daemon through its own socket, \
            or the server MPD_HOST and MPD_PORT name (read as mpc reads them), or an option.
            """)

    @Option(help: "The MPD server's host, or the path of its Unix socket. Default: $MPD_HOST, else the user's tonearm serve, else localhost.")
    var mpdHost: String?

    @Option(help: "The MPD server's port. Default: $MPD_PORT or 6600.")
    var mpdPort: Int?

    @Flag(help: "Log connections and errors to stderr (snapserver's log) at info level.")
    var verbose = false

    // What snapserver passes; accepted, not needed.
    @Option(help: .hidden) var stream: String?
    @Option(help: .hidden) var snapcastPort: Int?
    @Option(help: .hidden) var snapcastHost: String?

    @Argument(parsing: .allUnrecognized, help: .hidden)
    var ignored: [String] = []

    func run() {
        let environment = ProcessInfo.processInfo.environment
        let daemonSocket = MPDDaemonService.socket(in: .resolve(environment: environment))
        let fallback = FileManager.default.fileExists(atPath: daemonSocket) ? daemonSocket : "localhost"
        let host = mpdHost ?? environment["MPD_HOST"].flatMap { $0.isEmpty ? nil : $0 } ?? fallback
        let port = mpdPort ?? environment["MPD_PORT"].flatMap(Int.init) ?? 6600
        var logger = Logger(label: "tonearm.snapcast-control") { label in StreamLogHandler.standardError(label: label) }
        logger.logLevel = verbose ? .info : .warning
        // A write to a server that went away must fail, not end the process.
        signal(SIGPIPE, SIG_IGN)
        let output = StandardOutputLines()
        let script = ControlScript(address: .init(host: host, port: port), logger: logger, emit: output.write)
        script.run { Swift.readLine(strippingNewline: true) }
    }
}
