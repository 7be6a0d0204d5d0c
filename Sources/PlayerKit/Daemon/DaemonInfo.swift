import Foundation

/// What a running daemon tells the other `tonearm` commands of the same user, in its runtime
/// directory's info file: who it is and where its control services listen.
package struct DaemonInfo: Sendable, Equatable, Codable {
    package var pid: Int32
    /// The output it plays to, as `--output` names it (`pulse`, `null`, ...).
    package var output: String
    /// Where its services listen (MPD's addresses once it serves MPD); empty when none.
    package var endpoints: [DaemonEndpoint]

    package init(pid: Int32, output: String, endpoints: [DaemonEndpoint] = []) {
        self.pid = pid
        self.output = output
        self.endpoints = endpoints
    }

    /// How a listener reaches or stops this daemon, for the refusal of a second player.
    package var reachHint: String {
        let stop = "stop it with `systemctl --user stop tonearm` (or `kill \(pid)`)"
        guard let mpd = endpoints.first(where: { $0.service == DaemonEndpoint.mpd }) else { return "pid \(pid); \(stop)" }
        return "pid \(pid); control it with `\(mpd.mpcCommand)`, or \(stop)"
    }
}

/// One address a daemon's service listens on: a unix socket path, or `HOST:PORT`
/// (`[v6]:PORT` for IPv6).
package struct DaemonEndpoint: Sendable, Equatable, Codable {
    /// The service's name, such as `mpd`.
    package var service: String
    package var address: String

    /// The service name of the MPD protocol.
    package static let mpd = "mpd"

    package init(service: String, address: String) {
        self.service = service
        self.address = address
    }

    /// The `mpc` command line that reaches this address (without a password).
    package var mpcCommand: String {
        if address.hasPrefix("/") { return "mpc -h \(address)" }
        guard let colon = address.lastIndex(of: ":") else { return "mpc -h \(address)" }
        var host = String(address[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return "mpc -h \(host) -p \(address[address.index(after: colon)...])"
    }
}
