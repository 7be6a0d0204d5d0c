import Foundation

/// User intents. `handle(_:)` has already checked that the state allows each one.
extension PlayerStateMachine {
    mutating func apply(_ event: PlayerEvent) -> [PlayerEffect] {
        switch event {
        case .play(let request): return play(request)
        case .cannotPlay(let error): return cannotPlay(error)
        case .pause: return pause()
        case .resume: return resume()
        case .stop: return stop()
        case .skip: return skip()
        case .seek(let target): return seek(to: target)
        case .retry: return retry()
        case .reset: return reset()
        case .retryNow: return retryNow()
        case .cancelRetry: return cancelRetry()
        case .replace(let replacement): return replace(with: replacement)
        case .setVolume(let change): return setVolume(change)
        case .setSleepTimer(let request): return setSleepTimer(request)
        case .setSpeed(let change): return setSpeed(change)
        case .setSilenceTrimming(let on):
            guard on != trimsSilence else { return [] }
            trimsSilence = on
            return [.setSilenceTrimming(on)]
        case .setLoudness(let levelling):
            guard levelling != loudness else { return [] }
            loudness = levelling
            return [.setLoudness(levelling)]
        case .setUpcoming(let change): return setUpcoming(change)
        default: return applyFact(event)
        }
    }

    /// Speed is context like the volume; only a real change is an effect.
    mutating func setSpeed(_ change: SpeedChange) -> [PlayerEffect] {
        let new = change.applied(to: speed)
        guard new != speed else { return [] }
        speed = new
        return [.setSpeed(new)]
    }

    /// The volume is context, not state: it changes nothing else, and only a real change is an effect.
    mutating func setVolume(_ change: VolumeChange) -> [PlayerEffect] {
        let new = change.applied(to: volume)
        guard new != volume else { return [] }
        volume = new
        return [.setVolume(new)]
    }

    mutating func play(_ request: PlayRequest) -> [PlayerEffect] {
        queue = request.items
        itemIndices = Array(request.items.indices)
        index = 0
        recovery = nil
        manualRetryOf = nil
        outputMissing = false
        let track = request.items[0].track
        // The request's own start wins; a queue whose first entry was partly played carries it there.
        position = track.isLive ? 0 : (request.startPosition > 0 ? request.startPosition : request.items[0].startPosition)
        duration = track.duration
        var effects = releaseAll()
        effects += startLayers(of: request)
        effects.append(makeLoad(deck: activeDeck, track: track, from: position, purpose: .current))
        state = .preparing(track: track)
        return effects
    }

    /// An episode without audio fails at once, with no Retry and no resume point.
    mutating func cannotPlay(_ error: PlaybackError) -> [PlayerEffect] {
        queue = []
        itemIndices = []
        index = 0
        recovery = nil
        manualRetryOf = nil
        let effects = releaseAll()
        state = .failed(error: error, recoverable: false, resumePoint: nil)
        return effects
    }

    mutating func replace(with replacement: PlayerEvent.Replacement) -> [PlayerEffect] {
        // A clip's timer belongs to the clip: what replaces it plays on (a listener's own timer
        // carries over, as it does from station to station).
        if sleepTimer?.isClip == true { sleepTimer = nil }
        switch state {
        case .idle, .finished, .failed:
            return start(replacement)
        case .fadingOut where layersClosing:
            // A session's closing (its bed fading, a bell ringing out) is cut short by a fade.
            pendingReplacement = replacement
            return cutLayersClosing()
        case .fadingOut:
            // The fade under way ends first; the latest replacement asked for wins.
            pendingReplacement = replacement
            return []
        case .playing, .preparingCrossfade, .crossfading:
            // Something sounds: it fades out as on stop, and the replacement starts after.
            let effects = stop()
            pendingReplacement = replacement
            return effects
        case .preparing, .buffering, .seeking, .paused, .crossfadePaused, .reconnecting:
            // Nothing sounds (or nothing yet): let it go at once, keeping an episode's place.
            let effects = persist(state.currentTrack)
            recovery = nil
            return effects + start(replacement)
        }
    }

    /// Starts a replacement: play it, or show why it cannot play.
    mutating func start(_ replacement: PlayerEvent.Replacement) -> [PlayerEffect] {
        pendingReplacement = nil
        switch replacement {
        case .play(let request): return play(request)
        case .cannotPlay(let error): return cannotPlay(error)
        }
    }

    mutating func pause() -> [PlayerEffect] {
        switch state {
        case .buffering(let track, _, .initial), .buffering(let track, _, .connecting):
            // Nothing sounds yet: abandon the half-open source and open it again on resume
            // (a live stream then starts at the live edge, an episode where it was).
            pendingLoad = nil
            connectionLostWhilePaused = true
            state = .paused(track: track, position: position)
            return [.unload(activeDeck)] + persist(track)
        case .playing(let track), .buffering(let track, _, _):
            state = .paused(track: track, position: position)
            return [.pauseOutput] + persist(track)
        case .seeking(let track, _, let to):
            // Paused at the target: the deck goes on fetching it meanwhile.
            underrunSince = nil
            position = to
            state = .paused(track: track, position: to)
            return [.pauseOutput] + persist(track)
        case .preparingCrossfade(let current, _):
            // Pause during preparation pauses the current track; the next one is
            // prepared again after resume, when its time comes.
            var effects: [PlayerEffect] = [.pauseOutput]
            if let pending = pendingLoad, pending.purpose == .next { pendingLoad = nil }
            effects.append(.unload(activeDeck.opposite))
            next = nil
            state = .paused(track: current, position: position)
            return effects + persist(current)
        case .crossfading(let from, let to, let progress, _):
            guard let run = crossfade else { return [] }
            let gains = run.curve.gains(at: Double(progress))
            let snapshot = CrossfadePauseSnapshot(
                activeVolume: Float(gains.outgoing), inactiveVolume: Float(gains.incoming),
                activePosition: run.fromPosition, inactivePosition: run.toPosition,
                activePlayer: run.from, originalDuration: max(run.duration, 0.001), curve: run.curve,
                takenAt: lastKnownTime)
            state = .crossfadePaused(
                fromTrack: from, toTrack: to, progress: progress,
                resumeStrategy: .forPause(at: progress), savedState: snapshot)
            return [.pauseOutput]
        case .reconnecting(let track, _, _, _, _):
            // The user's intent survives the fault: stay paused, reconnect on resume.
            let kind = recovery?.kind
            let at = recovery?.resumePosition ?? position
            recovery = nil
            if kind == .output { outputMissing = true } else { connectionLostWhilePaused = true }
            position = at
            state = .paused(track: track, position: at)
            return []
        default:
            return []
        }
    }

    mutating func resume() -> [PlayerEffect] {
        let effects = resumePlayback()
        // Nobody waited on the sources while paused: a dry one's wait counts from now.
        restartDrySpells(at: lastKnownTime)
        return effects
    }

    private mutating func resumePlayback() -> [PlayerEffect] {
        switch state {
        case .paused(let track, let at):
            if connectionLostWhilePaused {
                connectionLostWhilePaused = false
                position = at
                let load = makeLoad(deck: activeDeck, track: track, from: at, purpose: .current)
                state = .preparing(track: track)
                return [.unload(activeDeck), load]
            }
            state = .playing(track: track)
            if outputMissing {
                outputMissing = false
                return [.reopenOutput, .resumeOutput]
            }
            return [.resumeOutput]
        case .crossfadePaused(let from, let to, let progress, let strategy, let snapshot):
            if progress >= 1 {
                // Nothing is left of the fade: the incoming track simply plays on.
                let oldDeck = crossfade?.from ?? snapshot.activePlayer
                let newIndex = next?.index ?? min(index + 1, queue.count - 1)
                promote(index: newIndex, deck: oldDeck.opposite, position: snapshot.inactivePosition, duration: next?.duration)
                state = .playing(track: to)
                return [.abortCrossfade(keep: oldDeck.opposite), .resumeOutput]
            }
            switch strategy {
            case .continueFromProgress:
                state = .crossfading(fromTrack: from, toTrack: to, progress: progress, canQuickFinish: false)
                return [
                    .continueCrossfade(fromProgress: progress, duration: snapshot.originalDuration, curve: snapshot.curve),
                    .resumeOutput,
                ]
            case .quickFinish:
                state = .crossfading(fromTrack: from, toTrack: to, progress: progress, canQuickFinish: true)
                return [.resumeOutput, .quickFinishCrossfade(duration: PlayerState.quickFinishDuration)]
            }
        default:
            return []
        }
    }

    /// Fades out what sounds over `duration`, saving an episode's place where the fade begins and
    /// dropping a next item being prepared; nil when nothing sounds.
    mutating func fadeOutSounding(over duration: TimeInterval) -> [PlayerEffect]? {
        switch state {
        case .playing(let track), .preparingCrossfade(let track, _), .crossfading(let track, _, _, _):
            var effects = persist(track)
            if case .preparingCrossfade = state {
                pendingLoad = nil
                next = nil
                effects.append(.unload(activeDeck.opposite))
            }
            state = .fadingOut(track: track, targetDuration: duration)
            return effects + [.fadeOut(duration: duration)]
        default:
            return nil
        }
    }

    mutating func stop() -> [PlayerEffect] {
        if let fading = fadeOutSounding(over: configuration.fadeOutDuration) { return fading }
        switch state {
        case .preparing, .paused, .crossfadePaused, .buffering, .seeking, .reconnecting:
            var effects = persist(state.currentTrack)
            effects += releaseAll()
            recovery = nil
            state = .idle
            return effects
        case .failed:
            state = .idle
            return []
        case .fadingOut where layersClosing:
            // A stop ends the closing, and whatever was to replace it.
            pendingReplacement = nil
            return cutLayersClosing()
        case .fadingOut:
            // Fading out already: the stop is under way. A replacement waiting for the fade is
            // called off: the listener's last word was stop.
            pendingReplacement = nil
            return []
        default:
            return []
        }
    }

    mutating func skip() -> [PlayerEffect] {
        switch state {
        case .playing(let track):
            guard let nextIndex = followingIndex else {
                // Skipping past the last item ends playback gracefully.
                state = .fadingOut(track: track, targetDuration: configuration.fadeOutDuration)
                return persist(track) + [.fadeOut(duration: configuration.fadeOutDuration)]
            }
            return prepareNext(nextIndex, skipping: true)
        case .preparingCrossfade:
            guard var item = next else { return [] }
            item.skipRequested = true
            next = item
            if item.ready { return scheduleCrossfade(now: true) }
            return []
        case .crossfading(let from, let to, let progress, _):
            // Skipping during a transition finishes it quickly: the listener wants the next one.
            state = .crossfading(fromTrack: from, toTrack: to, progress: progress, canQuickFinish: progress >= PlayerState.quickFinishThreshold)
            return [.quickFinishCrossfade(duration: PlayerState.quickFinishDuration)]
        default:
            return []
        }
    }

    /// A seek in a local file is immediate. In a network item the data at the target has to come
    /// first, so the state says `seeking` (with where the listener was) until it plays.
    mutating func seek(to target: TimeInterval) -> [PlayerEffect] {
        var clamped = max(0, target.isFinite ? target : 0)
        if let duration { clamped = min(clamped, duration) }
        let before = position
        position = clamped
        switch state {
        case .paused(let track, _):
            state = .paused(track: track, position: clamped)
            return [.seek(activeDeck, to: clamped)] + persist(track)
        case .playing(let track), .buffering(let track, _, .underrun), .seeking(let track, _, _):
            guard track.isRemote else { return [.seek(activeDeck, to: clamped)] }
            let from = if case .seeking(_, let from, _) = state { from } else { before }
            // The wait for the target counts towards the buffering timeout.
            underrunSince = lastKnownTime
            starvingSince = nil
            state = .seeking(track: track, from: from, to: clamped)
            return [.seek(activeDeck, to: clamped)]
        case .buffering:
            return [.seek(activeDeck, to: clamped)]
        default:
            return []
        }
    }

    /// The jump could not be made: a non-fatal, typed error, and the item loads again where the
    /// listener was.
    mutating func seekFailed(_ cause: PlaybackError) -> [PlayerEffect] {
        guard case .seeking(let track, let from, _) = state else { return [] }
        underrunSince = nil
        position = from
        let failure = PlaybackError(.seekFailed, httpStatus: cause.httpStatus, underlying: "\(cause.errorType): \(cause.underlying ?? "")")
        let load = makeLoad(deck: activeDeck, track: track, from: from, purpose: .current)
        state = .preparing(track: track)
        return [.reportNonFatal(failure), .unload(activeDeck), load]
    }

    mutating func retry() -> [PlayerEffect] {
        guard case .failed(let error, true, let point?) = state else { return [] }
        if !queue.contains(where: { $0.track.id == point.track.id }) {
            queue = [QueueItem(track: point.track)]
            itemIndices = [0]
            index = 0
        } else if let i = queue.firstIndex(where: { $0.track.id == point.track.id }) {
            index = i
        }
        manualRetryOf = error
        position = point.position
        duration = point.duration
        let load = makeLoad(deck: activeDeck, track: point.track, from: point.position, purpose: .current)
        state = .preparing(track: point.track)
        return [load]
    }

    mutating func reset() -> [PlayerEffect] {
        let effects = releaseAll()
        queue = []
        itemIndices = []
        index = 0
        position = 0
        duration = nil
        recovery = nil
        manualRetryOf = nil
        state = .idle
        return effects
    }

    mutating func retryNow() -> [PlayerEffect] {
        guard case .reconnecting = state, let run = recovery else { return [] }
        return attemptRecovery(run)
    }

    mutating func cancelRetry() -> [PlayerEffect] {
        guard case .reconnecting(_, _, _, _, let cause) = state else { return [] }
        return fail(cause, recoverable: true)
    }
}
