import NIOCore

/// Where the server listens: a TCP address or a Unix-domain socket file.
public enum MPDEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// Port 0 asks the system for a free port; `MPDServer.listeningAddresses` says which.
    case tcp(host: String, port: Int)
    case unixSocket(path: String)

    public var description: String {
        switch self {
        case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .unixSocket(let path): path
        }
    }

    /// Whether only this machine can reach the endpoint: a Unix socket (created 0600), or a TCP
    /// host that is a loopback address or `localhost`. Names are not resolved: any other name,
    /// and the wildcard addresses `0.0.0.0` and `::`, count as reachable from outside.
    public var isLocalOnly: Bool {
        switch self {
        case .unixSocket: return true
        case .tcp(let host, _):
            let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
            if bare.lowercased() == "localhost" { return true }
            guard let address = try? SocketAddress(ipAddress: bare, port: 0) else { return false }
            switch address {
            case .v4(let v4): return UInt32(bigEndian: v4.address.sin_addr.s_addr) >> 24 == 127
            case .v6(let v6):
                let bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
                if bytes == Array(repeating: 0, count: 15) + [1] { return true }
                // An IPv4-mapped loopback address, ::ffff:127.x.y.z.
                return bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
            default: return false
            }
        }
    }
}
