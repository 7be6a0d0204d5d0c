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

    /// Seconds a listener may ask to hold ahead (`--buffer`): more rides out longer outages (a
    /// server restart, a train through a tunnel) at the cost of a later start.
    public static let listenerRange: ClosedRange<Double> = 1...30

    /// Holding `seconds` ahead: a stream starts once that much is decoded, and an underrun waits
    /// for as much again (at least the usual 2 s).
    public static func holding(_ seconds: Double) -> NetworkBuffering {
        NetworkBuffering(startSeconds: seconds, refillSeconds: max(2, seconds))
    }
}
