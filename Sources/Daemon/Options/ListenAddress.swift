import Foundation
import MPDServer

/// An address a daemon service listens on: `HOST:PORT` (`[v6]:PORT` for IPv6) or an absolute
/// unix socket path.
package enum ListenAddress: Sendable, Hashable, CustomStringConvertible {
    case tcp(host: String, port: UInt16)
    case unix(path: String)

    /// MPD's usual address: loopback, port 6600.
    package static let mpdDefault = ListenAddress.tcp(host: "127.0.0.1", port: 6600)

    /// Parses `HOST:PORT`, `[V6]:PORT` or `/path`; nil for anything else (a missing port, an empty
    /// host, a bare IPv6 address without brackets). Port 0 asks the system for a free one, which
    /// `daemon.json` then names.
    package init?(parsing text: String) {
        if text.hasPrefix("/") {
            self = .unix(path: text)
            return
        }
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("[") {
            guard host.hasSuffix("]"), host.count > 2 else { return nil }
            host = String(host.dropFirst().dropLast())
        } else if host.contains(":") {
            return nil
        }
        guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" }) else { return nil }
        self = .tcp(host: host, port: port)
    }

    /// The endpoint an MPD server listens on for this address; whether it needs a password is
    /// the listen policy's one rule (`MPDListenPolicy`).
    package var mpdEndpoint: MPDEndpoint {
        switch self {
        case .tcp(let host, let port): .tcp(host: host, port: Int(port))
        case .unix(let path): .unixSocket(path: path)
        }
    }

    /// As given on the command line and written to the info file.
    package var description: String {
        switch self {
        case .unix(let path): path
        case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        }
    }
}
