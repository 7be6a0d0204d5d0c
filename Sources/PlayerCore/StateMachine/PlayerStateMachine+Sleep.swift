import Foundation

/// The sleep timer (`SleepTimer`): what a request does, when the countdown runs, and the fade when
/// it runs out.
extension PlayerStateMachine {
    /// States in which the countdown runs: something sounds.
    static func sleepCountdownRuns(in state: PlayerState) -> Bool {
        switch state.name {
        case .playing, .preparingCrossfade, .crossfading: true
        default: false
        }
    }

    mutating func setSleepTimer(_ request: SleepRequest) -> [PlayerEffect] {
        let running = Self.sleepCountdownRuns(in: state) ? lastKnownTime : nil
        switch request {
        case .after(let seconds):
            sleepTimer = SleepTimer(ending: .afterDuration, remaining: seconds, runningSince: running)
        case .clip(let seconds):
            sleepTimer = SleepTimer(
                ending: .afterDuration, remaining: seconds, runningSince: running, fade: Configuration.sleepFadeRange.lowerBound)
        case .endOfItem:
            sleepTimer = SleepTimer(ending: .endOfItem)
            return dropPreparedNext()
        case .endOfQueue:
            sleepTimer = SleepTimer(ending: .endOfQueue)
        case .extend(let seconds):
            let left = sleepTimer?.remaining(at: lastKnownTime) ?? 0
            sleepTimer = SleepTimer(ending: .afterDuration, remaining: left + seconds, runningSince: running, fade: sleepTimer?.fade)
        case .cancel:
            sleepTimer = nil
        case .cycle:
            return setSleepTimer(nextCycleStep())
        }
        return []
    }

    /// Off, 15, 30, 60 minutes, the end of the item, off: the step after the current timer.
    private func nextCycleStep() -> SleepRequest {
        guard let timer = sleepTimer else { return .after(SleepRequest.cycleMinutes[0] * 60) }
        switch timer.ending {
        case .endOfItem, .endOfQueue:
            return .cancel
        case .afterDuration:
            let left = timer.remaining(at: lastKnownTime) ?? 0
            // The first step longer than what is left (a timer running down moves up a step).
            if let step = SleepRequest.cycleMinutes.first(where: { $0 * 60 > left + 1 }) { return .after(step * 60) }
            return .endOfItem
        }
    }

    /// A next item prepared for a crossfade will not play once the timer ends with this item.
    private mutating func dropPreparedNext() -> [PlayerEffect] {
        guard case .preparingCrossfade(let current, _) = state, let item = next, !item.skipRequested else { return [] }
        next = nil
        pendingLoad = nil
        state = .playing(track: current)
        return [.unload(activeDeck.opposite)]
    }

    /// After every event: the countdown starts when sound does and freezes when it stops; the
    /// end of playback (a stop, the last item's end, a reset) ends the timer. Front ends hear of
    /// every change.
    mutating func updateSleepTimer(from before: PlayerStateMachine) -> [PlayerEffect] {
        if var timer = sleepTimer {
            let ended = before.state.name != state.name && (state.name == .idle || state.name == .finished)
            if ended {
                sleepTimer = nil
            } else if Self.sleepCountdownRuns(in: state), timer.runningSince == nil {
                timer.runningSince = lastKnownTime
                sleepTimer = timer
            } else if !Self.sleepCountdownRuns(in: state), timer.runningSince != nil {
                timer.remaining = timer.remaining(at: lastKnownTime) ?? timer.remaining
                timer.runningSince = nil
                sleepTimer = timer
            }
        }
        return before.sleepTimer == sleepTimer ? [] : [.sleepTimerChanged(sleepTimer)]
    }

    /// The countdown is over: fade out as a stop does, over the timer's own fade or else the sleep
    /// fade's length, saving an episode's place where the fade begins.
    mutating func sleepTimerRanOut() -> [PlayerEffect] {
        guard let timer = sleepTimer, timer.ending == .afterDuration else { return [] }
        sleepTimer = nil
        return fadeOutSounding(over: timer.fade ?? configuration.sleepFadeDuration) ?? []
    }
}
