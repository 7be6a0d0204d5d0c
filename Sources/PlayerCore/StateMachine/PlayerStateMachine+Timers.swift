import Foundation

/// Time: which timers run follows from the state, and what a due timer means.
///
/// The machine never asks the shell to "start" or "stop" a timer from inside a transition. After
/// every event it works out which deadlines the new state implies (`desiredTimers`) and asks the
/// shell for the difference (`reconcileTimers`). A state that no longer needs a timer cancels it
/// by construction, so a forgotten cancel cannot leave a stale deadline behind.
extension PlayerStateMachine {
    /// The deadlines the current state implies, by slot.
    func desiredTimers() -> [PlayerTimer.Slot: ArmedTimer] {
        var timers: [PlayerTimer.Slot: ArmedTimer] = [:]
        if case .reconnecting(_, let attempt, _, let at?, _) = state {
            timers[.retry] = ArmedTimer(timer: .retry(attempt: attempt), at: at)
        }
        if let load = pendingLoad, load.purpose == .current, let track = state.currentTrack, track.isRemote {
            switch state {
            case .preparing:
                timers[.stillConnecting] = ArmedTimer(
                    timer: .stillConnecting(load.id), at: load.startedAt + configuration.stillConnectingAfter)
                timers[.bufferingTimeout] = ArmedTimer(timer: .openingTimeout(load.id), at: load.startedAt + configuration.bufferingTimeout)
            case .buffering(_, _, .initial), .buffering(_, _, .connecting):
                timers[.bufferingTimeout] = ArmedTimer(timer: .openingTimeout(load.id), at: load.startedAt + configuration.bufferingTimeout)
            default:
                break
            }
        }
        if case .buffering(let track, _, .underrun) = state, track.isRemote, let since = underrunSince {
            timers[.bufferingTimeout] = ArmedTimer(timer: .underrunTimeout, at: since + configuration.bufferingTimeout)
        }
        if case .seeking = state, let since = underrunSince {
            timers[.bufferingTimeout] = ArmedTimer(timer: .underrunTimeout, at: since + configuration.bufferingTimeout)
        }
        if case .playing = state, let check = starvationCheckAt {
            timers[.starvation] = ArmedTimer(timer: .starvationCheck, at: check)
        }
        // Kept while anyone waits on a network source, dry or not: a short spell does not move it.
        if let check = stallCheckAt, isWaitedOn(.a) || isWaitedOn(.b) {
            timers[.stall] = ArmedTimer(timer: .stallCheck, at: check)
        }
        if let deadline = sleepTimer?.deadline {
            timers[.sleep] = ArmedTimer(timer: .sleep, at: deadline)
        }
        if let run = backgroundReconnect, let at = run.nextAttemptAt, case .playing = state {
            timers[.backgroundReconnect] = ArmedTimer(timer: .backgroundReconnect(attempt: run.attempt), at: at)
        }
        return timers
    }

    /// Asks the shell for the timers the state implies and that it is not running yet, and to drop
    /// the ones it no longer implies.
    mutating func reconcileTimers() -> [PlayerEffect] {
        let desired = desiredTimers()
        var effects: [PlayerEffect] = []
        for slot in PlayerTimer.Slot.allCases where desired[slot] != armedTimers[slot] {
            if let timer = desired[slot] {
                effects.append(.scheduleTimer(timer.timer, at: timer.at))
            } else {
                effects.append(.cancelTimer(slot))
            }
        }
        armedTimers = desired
        return effects
    }

    /// A timer is due. One the machine no longer runs (replaced or cancelled meanwhile) is ignored.
    mutating func timerFired(_ timer: PlayerTimer, at now: PlayerTime) -> [PlayerEffect] {
        guard armedTimers[timer.slot]?.timer == timer else { return [] }
        armedTimers[timer.slot] = nil
        switch timer {
        case .retry(let attempt):
            guard case .reconnecting(_, let current, _, _?, _) = state, current == attempt, let run = recovery else { return [] }
            return attemptRecovery(run)
        case .stillConnecting(let id):
            guard case .preparing(let track) = state, pendingLoad?.id == id else { return [] }
            state = .buffering(track: track, progress: 0, reason: .connecting)
            return []
        case .openingTimeout(let id):
            guard let load = pendingLoad, load.id == id, load.purpose == .current else { return [] }
            let error = PlaybackError(
                .bufferingTimeout, underlying: "no audio \(configuration.bufferingTimeout) s after the load began")
            return loadFailed(id, error, at: now)
        case .underrunTimeout:
            if case .seeking = state {
                return seekFailed(PlaybackError(.bufferingTimeout, underlying: "no audio at the target for \(configuration.bufferingTimeout) s"))
            }
            guard case .buffering(_, _, .underrun) = state else { return [] }
            let error = PlaybackError(.bufferingTimeout, underlying: "buffering for \(configuration.bufferingTimeout) s")
            return beginRecovery(.source, cause: error, at: now)
        case .starvationCheck:
            starvationCheckAt = nil
            guard case .playing(let track) = state, let since = starvingSince else { return [] }
            let showAt = since + configuration.underrunGrace
            guard now >= showAt else {
                starvationCheckAt = showAt
                return []
            }
            // Waiting on data for this long is the network, not the decoder: say so.
            starvingSince = nil
            underrunSince = since
            state = .buffering(track: track, progress: 0, reason: .underrun)
            return []
        case .stallCheck:
            return checkStalls(at: now)
        case .sleep:
            return sleepTimerRanOut()
        case .backgroundReconnect(let attempt):
            return backgroundAttemptDue(attempt)
        }
    }
}
