/// Where a Snapcast server takes a stream: a `tcp://` source in `mode=server` (Tonearm connects to
/// it) or a `pipe://` source (a FIFO the server reads).
public enum SnapcastEndpoint: Sendable, Equatable, CustomStringConvertible {
    case tcp(host: String, port: Int)
    case pipe(path: String)

    /// `tcp://HOST:PORT` (an IPv6 host in brackets: `tcp://[::1]:4953`) or `pipe:PATH`.
    public init?(address: String) {
        if address.hasPrefix("pipe:") {
            let path = String(address.dropFirst("pipe:".count))
            guard !path.isEmpty else { return nil }
            self = .pipe(path: path)
            return
        }
        guard address.hasPrefix("tcp://") else { return nil }
        let rest = address.dropFirst("tcp://".count)
        guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]), (1...65_535).contains(port)
        else { return nil }
        var host = String(rest[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains("/") else { return nil }
        self = .tcp(host: host, port: port)
    }

    /// The address as the listener wrote it, for messages.
    public var description: String {
        switch self {
        case .tcp(let host, let port): host.contains(":") ? "tcp://[\(host)]:\(port)" : "tcp://\(host):\(port)"
        case .pipe(let path): "pipe:\(path)"
        }
    }
}
