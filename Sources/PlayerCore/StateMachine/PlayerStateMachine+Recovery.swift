import Foundation

/// Automatic recovery: reconnecting a dropped source and reopening a lost audio output, with
/// backoff, a visible countdown, a give-up deadline, and no attempts spent while offline.
extension PlayerStateMachine {
    /// Schedules the next attempt, or gives up into `failed(recoverable: true)`.
    mutating func beginRecovery(_ kind: RecoveryRun.Kind, cause: PlaybackError, at now: PlayerTime) -> [PlayerEffect] {
        guard let track = state.currentTrack else { return [] }
        // A reconnect that began in the background and is heard now is the same reconnect.
        let countedAlready = backgroundReconnect != nil
        backgroundReconnect = nil
        // The flag the front ends show is over: what follows is visible as a state.
        let flagOver: [PlayerEffect] = countedAlready ? [.reconnectingInBackground(false)] : []
        guard cause.isRetryable else { return flagOver + fail(cause) }
        var run: RecoveryRun
        var warning: [PlayerEffect] = []
        if let existing = recovery, existing.kind == kind {
            run = existing
        } else {
            if kind == .source, !countedAlready { warning = recordDrop(of: track, at: now) }
            run = RecoveryRun(
                kind: kind, startedAt: now, attempt: 0, lastDelay: nil, cause: cause,
                resumePosition: track.isLive ? 0 : position)
        }
        run.cause = cause
        run.attempt += 1
        let policy = configuration.reconnectPolicy
        let elapsed = now.since(run.startedAt) - run.offlineSeconds
        let outOfTime = run.attempt > policy.maxAttempts || elapsed >= configuration.reconnectGiveUpAfter
        // A source reconnect also spends the session's budget; the output's does not touch the network.
        if outOfTime || (kind == .source && !takeReconnectToken(at: now)) {
            recovery = run
            return flagOver + warning + fail(cause, recoverable: true)
        }
        var delay = policy.delay(forRetry: run.attempt, previous: run.lastDelay, using: &random)
        // A server's Retry-After in seconds is honoured without spending extra attempts. (An
        // HTTP-date is turned into seconds by the network layer, which knows the wall clock.)
        if case .seconds(let asked)? = cause.retryAfter {
            delay = max(delay, min(asked, RetryAfter.maximumDelay))
        }
        run.lastDelay = delay
        var effects = flagOver + warning
        if kind == .source { effects.append(.unload(activeDeck)) }
        pendingLoad = nil
        let waitingForNetwork = kind == .source && !online
        if waitingForNetwork {
            run.offlineSince = run.offlineSince ?? now
        }
        // The countdown's end is in the state; `reconcileTimers` runs the timer for it.
        let retryAt: PlayerTime? = waitingForNetwork ? nil : now + delay
        recovery = run
        state = .reconnecting(track: track, attempt: run.attempt, maxAttempts: policy.maxAttempts, nextRetryAt: retryAt, cause: cause)
        return effects
    }

    /// Makes the attempt now: reopen the source (via `preparing`) or the output.
    mutating func attemptRecovery(_ run: RecoveryRun) -> [PlayerEffect] {
        guard case .reconnecting(let track, let attempt, let max, _, let cause) = state else { return [] }
        switch run.kind {
        case .source:
            let load = makeLoad(deck: activeDeck, track: track, from: run.resumePosition, purpose: .current)
            position = run.resumePosition
            state = .preparing(track: track)
            return [load]
        case .output:
            // The attempt is under way; the countdown is over until the output answers.
            state = .reconnecting(track: track, attempt: attempt, maxAttempts: max, nextRetryAt: nil, cause: cause)
            return [.reopenOutput]
        }
    }

    mutating func connectivityChanged(online isOnline: Bool, at now: PlayerTime) -> [PlayerEffect] {
        guard isOnline != online else { return [] }
        online = isOnline
        guard case .reconnecting(let track, let attempt, let max, _, let cause) = state, var run = recovery, run.kind == .source else {
            return []
        }
        if !isOnline {
            // No attempts are spent while offline: the countdown stops until the network returns.
            run.offlineSince = now
            recovery = run
            state = .reconnecting(track: track, attempt: attempt, maxAttempts: max, nextRetryAt: nil, cause: cause)
            return []
        }
        if let since = run.offlineSince {
            run.offlineSeconds += Swift.max(0, now.since(since))
            run.offlineSince = nil
        }
        recovery = run
        // The network is back: reconnect at once.
        return attemptRecovery(run)
    }

    mutating func outputLost(at now: PlayerTime) -> [PlayerEffect] {
        let cause = PlaybackError(.audioOutputLost)
        switch state {
        case .playing, .buffering, .seeking:
            return [.pauseOutput] + beginRecovery(.output, cause: cause, at: now)
        case .preparingCrossfade:
            return dropNext() + [.pauseOutput] + beginRecovery(.output, cause: cause, at: now)
        case .crossfading(_, let to, _, _):
            // Hold on the incoming track: a half-finished crossfade cannot be held sensibly.
            guard let run = crossfade, let item = next else { return [] }
            promote(index: item.index, deck: run.to, position: run.toPosition, duration: item.duration)
            state = .playing(track: to)
            return [.abortCrossfade(keep: run.to), .pauseOutput] + beginRecovery(.output, cause: cause, at: now)
        case .reconnecting:
            if let run = recovery, run.kind == .output {
                return beginRecovery(.output, cause: cause, at: now)
            }
            outputMissing = true
            return []
        case .paused, .crossfadePaused, .preparing:
            outputMissing = true
            return []
        case .fadingOut:
            return fadeOutCompleted()
        case .idle, .finished, .failed:
            outputMissing = true
            return []
        }
    }

    mutating func outputRestored() -> [PlayerEffect] {
        outputMissing = false
        guard case .reconnecting(let track, _, _, _, let cause) = state, let run = recovery, run.kind == .output else { return [] }
        recovery = nil
        state = .playing(track: track)
        return [.resumeOutput, .recovered(from: cause, by: .automaticRetry)]
    }
}

extension PlayerStateMachine {
    /// Takes a token from the session's reconnect budget; false when it is spent.
    mutating func takeReconnectToken(at now: PlayerTime) -> Bool {
        var budget = reconnectBudget ?? TokenBucket(
            capacity: configuration.reconnectBudgetCapacity, refillPerSecond: configuration.reconnectBudgetRefillPerSecond,
            at: now.seconds)
        let granted = budget.take(at: now.seconds)
        reconnectBudget = budget
        return granted
    }
}
