/// Why a socket connect failed: the step that failed and a plain reason, the resolver's
/// (`gai_strerror`), the system's (`strerror`) or the helper's own ("no answer within 2.0 s",
/// "socket path too long"). Callers put it into their own errors, with their own wording around it.
package struct SocketConnectError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the connect stopped, so a caller can say whether the name or the address failed.
    package enum Step: Sendable, Equatable {
        /// The host name did not resolve.
        case resolve
        /// The Unix socket path does not fit a `sockaddr_un`.
        case path
        /// No socket could be made.
        case socket
        /// Every address refused, failed or did not answer in time.
        case connect
    }

    package let step: Step
    package let reason: String

    package init(_ step: Step, _ reason: String) {
        self.step = step
        self.reason = reason
    }

    package var description: String { reason }
}
