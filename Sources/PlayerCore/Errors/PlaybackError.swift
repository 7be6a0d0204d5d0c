import Foundation

/// Every failure in Tonearm, typed: a stable code, one of five categories, a low-cardinality
/// `errorType`, what may retry it, and plain-language texts in English and Russian.
///
/// Privacy: the fields that leave this value (texts, `errorType`, code) never hold URLs,
/// credentials, file paths or titles. `underlying` keeps the original error's description for
/// logs only; analytics and screens never read it.
public struct PlaybackError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    public let code: Code
    /// The HTTP status for the `http…` codes.
    public let httpStatus: Int?
    /// The server's `Retry-After`, honoured by retries without spending extra attempts.
    public let retryAfter: RetryAfter?
    /// For `invalidTransition`: the intent that was refused.
    public let rejectedAction: PlayerAction?
    /// For `invalidTransition`: the state that refused it.
    public let rejectedState: PlayerState.Name?
    /// For `circuitOpen`: the host (and port, when not the scheme's default) that is not being
    /// contacted. Only a host, never a URL: no path, query or credentials.
    public let host: String?
    /// The original error's description, for logs only.
    public let underlying: String?

    public init(
        _ code: Code,
        httpStatus: Int? = nil,
        retryAfter: RetryAfter? = nil,
        rejectedAction: PlayerAction? = nil,
        rejectedState: PlayerState.Name? = nil,
        host: String? = nil,
        underlying: String? = nil
    ) {
        self.code = code
        self.httpStatus = httpStatus
        self.retryAfter = retryAfter
        self.rejectedAction = rejectedAction
        self.rejectedState = rejectedState
        self.host = host.map { TextSanitizer.singleLine($0, maxLength: 260) }
        self.underlying = underlying.map { TextSanitizer.singleLine($0, maxLength: 1000) }
    }

    /// Two errors are the same failure when code and typed details agree; the log text may differ.
    public static func == (lhs: PlaybackError, rhs: PlaybackError) -> Bool {
        lhs.code == rhs.code && lhs.httpStatus == rhs.httpStatus && lhs.retryAfter == rhs.retryAfter
            && lhs.rejectedAction == rhs.rejectedAction && lhs.rejectedState == rhs.rejectedState && lhs.host == rhs.host
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(httpStatus)
        hasher.combine(rejectedAction)
        hasher.combine(rejectedState)
        hasher.combine(host)
    }

    /// A refused intent (invalid transitions are rejected, never silently applied).
    public static func invalidTransition(_ action: PlayerAction, in state: PlayerState.Name) -> PlaybackError {
        PlaybackError(.invalidTransition, rejectedAction: action, rejectedState: state)
    }

    /// A call refused by an open circuit breaker: names the host and, as `retryAfter`, the
    /// seconds until the breaker lets a probe through (so the texts can say when).
    public static func circuitOpen(host: String, retryIn seconds: Double) -> PlaybackError {
        PlaybackError(
            .circuitOpen, retryAfter: .seconds(max(0, seconds)), host: host,
            underlying: "circuit open for \(host); next try in \(Int(max(0, seconds).rounded(.up))) s")
    }

    /// The category of the error's code.
    public var category: Category { code.category }

    /// Stable, low-cardinality name for analytics, such as `Network.timeout`.
    public var errorType: String { "\(code.category.rawValue).\(code.typeName)" }

    /// Retried automatically, retryable by the user, or final.
    public var disposition: Disposition { code.disposition }

    /// The engine retries this by itself (with backoff) before showing anything final.
    public var isRetryable: Bool { disposition == .automatic }

    /// A Retry action makes sense to the user (true for everything retried automatically too:
    /// when automatic attempts run out, the user may still try again).
    public var isRecoverable: Bool { disposition != .final }

    public var description: String {
        var parts = ["\(errorType) (\(code.rawValue))"]
        if let httpStatus { parts.append("HTTP \(httpStatus)") }
        if let rejectedAction, let rejectedState { parts.append("\(rejectedAction.rawValue) in \(rejectedState.rawValue)") }
        if let host { parts.append("host \(host)") }
        if let underlying { parts.append(underlying) }
        return parts.joined(separator: ": ")
    }
}

extension PlaybackError {
    /// The five error categories.
    public enum Category: String, Sendable, Hashable, Codable, CaseIterable {
        case network = "Network"
        case authorization = "Authorization"
        case resource = "Resource"
        case operation = "Operation"
        case system = "System"
    }

    /// Code groups, numbered like Android Media3's error codes.
    public enum Group: String, Sendable, Hashable, Codable, CaseIterable {
        case general, networkIO, parsing, decoding, audioOutput
    }

    /// What happens after this error: the engine retries it, the user may, or nobody should.
    public enum Disposition: String, Sendable, Hashable, Codable, CaseIterable {
        /// Transient: the engine retries with backoff (and the user may retry when it gives up).
        case automatic
        /// Not retried by the engine, but a Retry action makes sense (e.g. server 404 on a mount).
        case userRetry
        /// Retrying cannot help (corrupt file, missing audio URL).
        case final
    }
}
