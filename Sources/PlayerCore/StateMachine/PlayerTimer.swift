import Foundation

/// A deadline the state machine sets on the player's clock. The machine decides every question of
/// time (how long to wait before a reconnect, when a slow connection is "still connecting", when
/// buffering has gone on too long); the I/O layers only report facts and run the timers it asks for.
///
/// The shell performs `PlayerEffect.scheduleTimer` with a cancellable sleep on the injected clock and
/// answers with `PlayerEvent.timerFired` carrying the same timer. A firing the machine no longer
/// expects (it was rescheduled or cancelled meanwhile) changes nothing.
public enum PlayerTimer: Sendable, Hashable {
    /// The countdown of reconnect attempt `attempt` is over.
    case retry(attempt: Int)
    /// The load of the current item has not delivered audio yet: tell the listener it is still
    /// connecting (told early, failed late).
    case stillConnecting(LoadID)
    /// The load of the current item has not filled its start buffer in time: give it up (a network
    /// item reconnects).
    case openingTimeout(LoadID)
    /// Playback has waited for data for the buffering timeout since the underrun began: reconnect.
    case underrunTimeout
    /// Rendering has waited for data since a starvation began; decides whether that wait is long
    /// enough to show as buffering.
    case starvationCheck
    /// A deck's source has been dry since some instant; decides whether that is a stall.
    case stallCheck
    /// The sleep timer has run out.
    case sleep
    /// The wait before background reconnect attempt `attempt` of a live stream is over.
    case backgroundReconnect(attempt: Int)

    /// Timers that exclude each other share a slot: scheduling one replaces the timer in its slot.
    public enum Slot: Sendable, Hashable, CaseIterable {
        case retry, stillConnecting, bufferingTimeout, starvation, stall, sleep, backgroundReconnect
    }

    public var slot: Slot {
        switch self {
        case .retry: .retry
        case .stillConnecting: .stillConnecting
        case .openingTimeout, .underrunTimeout: .bufferingTimeout
        case .starvationCheck: .starvation
        case .stallCheck: .stall
        case .sleep: .sleep
        case .backgroundReconnect: .backgroundReconnect
        }
    }
}
