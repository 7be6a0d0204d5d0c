/// Why the server did not start. The texts are shown to the person who started it, so they say
/// what to do.
public enum MPDServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Listening where other machines can connect, with no password to keep them out.
    case passwordRequired(MPDEndpoint)
    /// Another process answers on this socket path.
    case socketInUse(path: String)
    /// Something that is not a socket is at the path; it is left alone.
    case pathIsNotASocket(path: String)
    case bindFailed(MPDEndpoint, reason: String)
    case alreadyStarted

    public var description: String {
        switch self {
        case .passwordRequired(let endpoint):
            "Refusing to listen for MPD clients on \(endpoint) without a password: anyone who can reach this address could "
                + "control the player. Set a password with --mpd-password or the environment variable TONEARM_MPD_PASSWORD, "
                + "or listen on a loopback address such as 127.0.0.1."
        case .socketInUse(let path):
            "Another server already answers on the MPD socket \(path); stop it or choose another path."
        case .pathIsNotASocket(let path):
            "\(path) exists and is not a socket, so it was left alone; choose another path for the MPD socket."
        case .bindFailed(let endpoint, let reason):
            "Could not listen for MPD clients on \(endpoint): \(reason)"
        case .alreadyStarted:
            "The MPD server is already running."
        }
    }
}

/// The rule that keeps a player off the network by accident: every endpoint other machines can
/// reach needs a password. Checked before anything is bound.
public enum MPDListenPolicy {
    public static func check(_ endpoints: [MPDEndpoint], password: String?) throws(MPDServerError) {
        guard password?.isEmpty ?? true else { return }
        if let exposed = endpoints.first(where: { !$0.isLocalOnly }) { throw .passwordRequired(exposed) }
    }
}
