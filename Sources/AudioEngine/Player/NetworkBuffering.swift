import Foundation
import PlayerCore

/// How much network tracks (streams and remote episodes) buffer, in seconds of decoded audio.
/// How long buffering may take is the state machine's decision
/// (`PlayerStateMachine.Configuration.bufferingTimeout`).
public struct NetworkBuffering: Sendable, Equatable {
    /// Audio buffered before a stream starts sounding (about 1 s).
    public var startSeconds: Double
    /// Audio buffered again before an underrun ends (about 2 s).
    public var refillSeconds: Double

    public init(startSeconds: Double = 1, refillSeconds: Double = 2) {
        self.startSeconds = startSeconds
        self.refillSeconds = refillSeconds
    }
}
