import Foundation

/// Facts reported by the engine, the network layer and the output.
extension PlayerStateMachine {
    /// The last item's closing fade starts this much before the point where it would end exactly
    /// with the source: positions arrive every 100 ms of audio, and a fade cut short by the end of the
    /// source would click.
    static let endFadeLead: TimeInterval = 0.1
    /// A position this far past a seek's target means audio from the target is playing...
    static let seekArrivalMargin: TimeInterval = 0.05
    /// ...unless it is further than this: then it is a report from before the jump.
    static let seekArrivalWindow: TimeInterval = 10

    mutating func applyFact(_ event: PlayerEvent) -> [PlayerEffect] {
        if let at = event.instant, at > lastKnownTime { lastKnownTime = at }
        switch event {
        case .loaded(let id, let duration): return loaded(id, duration: duration)
        case .loadIsRecording(let id): return loadIsRecording(id)
        case .loadFailed(let id, let error, let at): return loadFailed(id, error, at: at)
        case .bufferProgress(let deck, let fill): return bufferProgress(deck, fill: fill)
        case .underrun(let deck): return underrun(deck)
        case .refilled(let deck): return refilled(deck)
        case .positionChanged(let deck, let at): return positionChanged(deck, to: at)
        case .crossfadeStarted: return crossfadeStarted()
        case .crossfadeProgress(let p, let fromPosition, let toPosition):
            return crossfadeProgress(p, fromPosition: fromPosition, toPosition: toPosition)
        case .crossfadeCompleted: return crossfadeCompleted()
        case .fadeOutCompleted: return fadeOutCompleted()
        case .trackEnded(let deck, let at): return trackEnded(deck, at: at)
        case .streamDropped(let deck, let cause, let at): return streamDropped(deck, cause: cause, at: at)
        case .stalled(let deck, let at): return sourceRanDry(deck, at: at)
        case .receiving(let deck, _): return sourceReceiving(deck)
        case .playlistUnchanged(let deck, let loads, let at): return playlistUnchanged(deck, loads: loads, at: at)
        case .errorOccurred(let deck, let error, let at): return errorOccurred(deck, error, at: at)
        case .timerFired(let timer, let at): return timerFired(timer, at: at)
        case .connectivityChanged(let online, let at): return connectivityChanged(online: online, at: at)
        case .outputLost(let at): return outputLost(at: at)
        case .outputRestored: return outputRestored()
        case .layersProgress, .bellStruck, .sessionClockJumped, .layersFinished: return applyLayerFact(event)
        default: return []
        }
    }

    mutating func loaded(_ id: LoadID, duration loadedDuration: TimeInterval?) -> [PlayerEffect] {
        guard let pending = pendingLoad, pending.id == id else { return [] }
        pendingLoad = nil
        switch (pending.purpose, state) {
        case (.current, .preparing(let track)), (.current, .buffering(let track, _, _)):
            activeDeck = pending.deck
            position = pending.from
            duration = track.playLength(decoded: loadedDuration)
            var effects: [PlayerEffect] = [.start(pending.deck)]
            if let run = recovery {
                effects.append(.recovered(from: run.cause, by: .automaticRetry))
                recovery = nil
            }
            if let error = manualRetryOf {
                effects.append(.recovered(from: error, by: .manualRetry))
                manualRetryOf = nil
            }
            state = .playing(track: track)
            return effects
        case (.next, .preparingCrossfade):
            guard var item = next else { return [] }
            item.ready = true
            item.duration = queue[item.index].track.playLength(decoded: loadedDuration)
            next = item
            return scheduleCrossfade(now: item.skipRequested)
        default:
            return []
        }
    }

    /// A live address holds a finished recording: the current item becomes episode-like, so its
    /// end is a finish (not a drop to reconnect, which would play the recording again) and it
    /// can seek. Only an item loading to play now; one loading to crossfade in stays live.
    mutating func loadIsRecording(_ id: LoadID) -> [PlayerEffect] {
        guard let pending = pendingLoad, pending.id == id, pending.purpose == .current, queue.indices.contains(index) else { return [] }
        let track = queue[index].track
        guard track.isLive else { return [] }
        let recording = track.asRecording()
        switch state {
        case .preparing(let current) where current.id == track.id:
            state = .preparing(track: recording)
        case .buffering(let current, let progress, let reason) where current.id == track.id:
            state = .buffering(track: recording, progress: progress, reason: reason)
        default:
            return []
        }
        queue[index] = queue[index].replacingTrack(recording)
        return []
    }

    mutating func loadFailed(_ id: LoadID, _ error: PlaybackError, at: PlayerTime) -> [PlayerEffect] {
        guard let pending = pendingLoad, pending.id == id else { return [] }
        pendingLoad = nil
        switch pending.purpose {
        case .current:
            guard state.name == .preparing || state.name == .buffering, let track = state.currentTrack else { return [] }
            // A 404 on the first connect is a wrong address and is not retried blindly; once the
            // stream has played, it is a mount gone for a while.
            let error = recovery != nil && track.isLive ? Self.afterPlaying(error) : error
            // Learned retries: an item that has not answered for days gets its one try.
            if recovery == nil, currentItem?.triesOnce == true, error.isRetryable {
                return fail(error, recoverable: true)
            }
            if error.isRetryable && track.isRemote && error.code != .audioOutputLost {
                return beginRecovery(.source, cause: error, at: at)
            }
            return fail(error)
        case .next:
            return nextItemFailed(error)
        }
    }

    /// The next item cannot play: report it, drop it from the queue, try the one after.
    mutating func nextItemFailed(_ error: PlaybackError) -> [PlayerEffect] {
        guard case .preparingCrossfade(let current, _) = state, let item = next else { return [] }
        var effects: [PlayerEffect] = [.reportNonFatal(error), .unload(activeDeck.opposite)]
        let skipping = item.skipRequested
        queue.remove(at: item.index)
        if itemIndices.indices.contains(item.index) { itemIndices.remove(at: item.index) }
        next = nil
        pendingLoad = nil
        if let following = automaticNextIndex {
            effects += prepareNext(following, skipping: skipping)
            return effects
        }
        state = .playing(track: current)
        return effects
    }

    mutating func bufferProgress(_ deck: DeckID, fill: Float) -> [PlayerEffect] {
        let f = min(1, max(0, fill.isFinite ? fill : 0))
        switch state {
        case .preparing(let track):
            guard pendingLoad?.deck == deck, pendingLoad?.purpose == .current else { return [] }
            state = .buffering(track: track, progress: f, reason: .initial)
        case .buffering(let track, _, let reason):
            let opening = reason != .underrun
            let expected = opening ? pendingLoad?.deck : activeDeck
            guard expected == deck else { return [] }
            // Bytes arrived: a connection shown as "still connecting" is now filling.
            state = .buffering(track: track, progress: f, reason: opening ? .initial : reason)
        default:
            break
        }
        return []
    }

    /// The active deck has no data. In real time the listener hears it at once: `buffering`. While
    /// rendering, a starvation only becomes `buffering` once it has lasted `underrunGrace`
    /// (`timerFired(.starvationCheck)`).
    mutating func underrun(_ deck: DeckID) -> [PlayerEffect] {
        guard case .playing(let track) = state, deck == activeDeck else { return [] }
        // The listener hears the gap: a stall of the stream, whatever comes of it.
        if track.isRemote { connectionIncidents.record(.stall, of: track.id, at: lastKnownTime) }
        if let run = backgroundReconnect, run.deck == deck {
            // The buffer ran dry before the stream came back: now the listener hears the gap, so
            // the reconnect becomes the visible one, with its countdown.
            return beginRecovery(.source, cause: run.cause, at: lastKnownTime)
        }
        guard configuration.underrunGrace > 0 else {
            underrunSince = lastKnownTime
            state = .buffering(track: track, progress: 0, reason: .underrun)
            return []
        }
        if starvingSince == nil { starvingSince = lastKnownTime }
        if starvationCheckAt == nil, let since = starvingSince { starvationCheckAt = since + configuration.underrunGrace }
        return []
    }

    mutating func refilled(_ deck: DeckID) -> [PlayerEffect] {
        guard deck == activeDeck else { return [] }
        starvingSince = nil
        if case .seeking(let track, _, _) = state {
            // The data at the target has come.
            underrunSince = nil
            state = .playing(track: track)
            return []
        }
        guard case .buffering(let track, _, .underrun) = state else { return [] }
        underrunSince = nil
        state = .playing(track: track)
        return []
    }

    mutating func positionChanged(_ deck: DeckID, to newPosition: TimeInterval) -> [PlayerEffect] {
        guard deck == activeDeck, newPosition.isFinite, newPosition >= 0 else { return [] }
        switch state {
        case .playing(let track):
            position = newPosition
            guard let duration, !track.isLive else { return [] }
            if let nextIndex = automaticNextIndex {
                if newPosition >= preloadPoint(into: nextIndex, duration: duration) {
                    return prepareNext(nextIndex, skipping: false)
                }
            } else if configuration.fadeOutAtEnd, layers == nil, newPosition >= duration - configuration.fadeOutDuration - Self.endFadeLead {
                state = .fadingOut(track: track, targetDuration: configuration.fadeOutDuration)
                return [.fadeOut(duration: configuration.fadeOutDuration)]
            }
            return []
        case .seeking(let track, _, let to):
            // Audio from the target plays: a position just past it (a report at the target itself
            // is only the jump; one far from it was sent before the jump and arrives late).
            guard newPosition >= to, newPosition - to <= Self.seekArrivalWindow else { return [] }
            position = newPosition
            if newPosition - to > Self.seekArrivalMargin {
                underrunSince = nil
                state = .playing(track: track)
            }
            return []
        case .buffering, .preparingCrossfade:
            position = newPosition
            return []
        default:
            return []
        }
    }

    mutating func crossfadeStarted() -> [PlayerEffect] {
        guard case .preparingCrossfade(let current, let incoming) = state, let item = next, item.crossfadeScheduled else { return [] }
        let fade = crossfadeSpec(into: item.index, skipping: item.skipRequested)
        crossfade = CrossfadeRun(
            from: activeDeck, to: activeDeck.opposite, duration: fade.duration / outgoingRate, curve: fade.curve, fromPosition: position)
        state = .crossfading(fromTrack: current, toTrack: incoming, progress: 0, canQuickFinish: false)
        return []
    }

    mutating func crossfadeProgress(_ progress: Float, fromPosition: TimeInterval, toPosition: TimeInterval) -> [PlayerEffect] {
        guard case .crossfading(let from, let to, _, _) = state, var run = crossfade else { return [] }
        let p = min(1, max(0, progress.isFinite ? progress : 0))
        run.progress = p
        if fromPosition.isFinite, fromPosition >= 0 { run.fromPosition = fromPosition }
        if toPosition.isFinite, toPosition >= 0 { run.toPosition = toPosition }
        crossfade = run
        position = run.fromPosition
        state = .crossfading(fromTrack: from, toTrack: to, progress: p, canQuickFinish: p >= PlayerState.quickFinishThreshold)
        return []
    }

    mutating func crossfadeCompleted() -> [PlayerEffect] {
        guard case .crossfading(let from, let to, _, _) = state, let run = crossfade, let item = next else { return [] }
        promote(index: item.index, deck: run.to, position: run.toPosition, duration: item.duration)
        state = .playing(track: to)
        // A track the listener skipped did not finish: an episode skipped is not played.
        return [.unload(run.from)] + (item.skipRequested ? [] : [.trackFinished(from)])
    }

    mutating func fadeOutCompleted() -> [PlayerEffect] {
        guard case .fadingOut(let track, _) = state else { return [] }
        // (A session whose layers were closing it told its last stage's end already.)
        let endedNaturally = !layersClosing && (duration.map { position >= $0 - configuration.fadeOutDuration - Self.endFadeLead - 0.05 } ?? false)
        let effects = releaseAll()
        state = .finished
        return effects + (endedNaturally ? [.trackFinished(track)] : [])
    }

    mutating func trackEnded(_ deck: DeckID, at: PlayerTime) -> [PlayerEffect] {
        switch state {
        case .playing(let track), .buffering(let track, _, _), .seeking(let track, _, _):
            guard deck == activeDeck else { return [] }
            if track.isLive {
                // A live stream has no end: its connection ending is a drop, never "finished".
                return beginRecovery(.source, cause: PlaybackError(.connectionLost), at: at)
            }
            if let nextIndex = automaticNextIndex {
                // No time was left to crossfade (unknown duration): play the next one after a gap.
                let load = makeLoad(deck: activeDeck, track: queue[nextIndex].track, from: queue[nextIndex].loadStart, purpose: .current)
                index = nextIndex
                position = queue[nextIndex].loadStart
                duration = queue[nextIndex].track.duration
                state = .preparing(track: queue[nextIndex].track)
                return [.trackFinished(track), .unload(activeDeck), load]
            }
            if case .playing = state, let closing = closeLayers(after: track) {
                // A session's layers close it: its bed fades out, its last bell rings out.
                return [.trackFinished(track)] + closing
            }
            let effects = releaseAll()
            state = .finished
            return effects + [.trackFinished(track)]
        case .preparingCrossfade(let current, let incoming):
            guard deck == activeDeck, let item = next else { return [] }
            if item.ready {
                promote(index: item.index, deck: activeDeck.opposite, position: queue[item.index].loadStart, duration: item.duration)
                state = .playing(track: incoming)
                return [.start(activeDeck), .unload(activeDeck.opposite), .trackFinished(current)]
            }
            // The next is still loading: it becomes the current load.
            let oldDeck = activeDeck
            if let pending = pendingLoad {
                pendingLoad = PendingLoad(
                    id: pending.id, deck: pending.deck, purpose: .current, from: queue[item.index].loadStart, startedAt: pending.startedAt)
            }
            index = item.index
            activeDeck = oldDeck.opposite
            position = queue[item.index].loadStart
            duration = queue[item.index].track.duration
            next = nil
            state = .preparing(track: incoming)
            return [.unload(oldDeck), .trackFinished(current)]
        case .crossfading(let from, let to, _, _):
            // The outgoing source ended before the fade did (its container overstated its length):
            // the incoming track simply plays on at full gain.
            guard let run = crossfade, deck == run.from, let item = next else { return [] }
            promote(index: item.index, deck: run.to, position: run.toPosition, duration: item.duration)
            state = .playing(track: to)
            return [.abortCrossfade(keep: run.to), .trackFinished(from)]
        case .fadingOut:
            return fadeOutCompleted()
        default:
            return []
        }
    }

    /// A network source says its connection broke. What the deck already holds still plays: a drop
    /// reaches the listener when that audio runs out, as the deck's error (`errorOccurred`), and
    /// the reconnect starts then. Only where nothing is left to play is the drop acted on at once.
    mutating func streamDropped(_ deck: DeckID, cause: PlaybackError, at: PlayerTime) -> [PlayerEffect] {
        // The drop ends the dry spell's question: the connection is gone, not slow.
        drySince[deck] = nil
        let live = (deck == activeDeck ? state.currentTrack : state.nextTrack)?.isLive ?? false
        let effects = answerDrop(deck, cause: cause, at: at)
        // A live source waits for the answer to its drop: unless it is being reconnected in the
        // background (now or after a wait) or unloaded, it is given up, and its deck reads the
        // error once its buffered audio has played.
        guard live, backgroundReconnect?.deck != deck, !effects.contains(.unload(deck)) else { return effects }
        return effects + [.abandonConnection(deck, cause: cause)]
    }

    private mutating func answerDrop(_ deck: DeckID, cause: PlaybackError, at: PlayerTime) -> [PlayerEffect] {
        switch state {
        case .buffering(let track, _, .underrun):
            guard deck == activeDeck, track.isRemote else { return [] }
            return beginRecovery(.source, cause: cause, at: at)
        case .crossfading(_, let to, _, _):
            guard let run = crossfade else { return [] }
            if deck == run.from {
                // The outgoing stream is gone: finish the fade quickly on what is left.
                return [.quickFinishCrossfade(duration: PlayerState.quickFinishDuration)]
            }
            guard deck == run.to, to.isRemote, let item = next else { return [] }
            promote(index: item.index, deck: run.to, position: run.toPosition, duration: item.duration)
            state = .playing(track: to)
            return [.abortCrossfade(keep: run.to)] + beginRecovery(.source, cause: cause, at: at)
        case .paused(let track, _):
            guard deck == activeDeck, track.isRemote, !connectionLostWhilePaused else { return [] }
            // Paused stays paused; the connection is made again on resume.
            connectionLostWhilePaused = true
            return [.unload(activeDeck)]
        case .playing(let track) where deck == activeDeck && track.kind == .liveStream:
            // The buffered audio plays on while the stream is asked for again.
            return reconnectInBackground(deck, cause: cause, at: at)
        default:
            // Opening, or preparing the next item: the deck's buffered audio plays first.
            return []
        }
    }

    /// A live stream's 404 after it played: its mount is gone for now (the source client left),
    /// unavailable for a while, which the reconnect policy rides out.
    static func afterPlaying(_ error: PlaybackError) -> PlaybackError {
        guard error.code == .httpNotFound else { return error }
        return PlaybackError(.streamUnavailable, httpStatus: error.httpStatus, underlying: error.underlying)
    }

    mutating func errorOccurred(_ deck: DeckID?, _ error: PlaybackError, at: PlayerTime) -> [PlayerEffect] {
        if error.code == .audioOutputLost { return outputLost(at: at) }
        switch state {
        case .idle, .finished, .failed:
            return []
        case .fadingOut:
            return fadeOutCompleted()
        case .preparingCrossfade where deck == activeDeck.opposite:
            return nextItemFailed(error)
        case .preparing:
            if let pending = pendingLoad { return loadFailed(pending.id, error, at: at) }
            return fail(error)
        case .playing(let track) where backgroundReconnect?.deck == deck && deck != nil:
            // The deck ran out on the failure of a reopen made in the background: the drop is
            // the cause (a reopen's 404 of a mount that played is unavailability, already mapped).
            guard let run = backgroundReconnect, track.isRemote else { return fail(error) }
            return beginRecovery(.source, cause: run.cause, at: at)
        case .playing(let track), .buffering(let track, _, _), .preparingCrossfade(let track, _):
            if error.isRetryable, track.isRemote {
                return dropNext() + beginRecovery(.source, cause: error, at: at)
            }
            return fail(error)
        case .seeking:
            return seekFailed(error)
        case .reconnecting:
            if error.isRetryable, let run = recovery { return beginRecovery(run.kind, cause: error, at: at) }
            return fail(error)
        case .crossfading, .paused, .crossfadePaused:
            return fail(error)
        }
    }

    /// Abandons a next item being prepared (before a reconnect of the current one).
    mutating func dropNext() -> [PlayerEffect] {
        guard case .preparingCrossfade(let current, _) = state else { return [] }
        if pendingLoad?.purpose == .next { pendingLoad = nil }
        next = nil
        state = .playing(track: current)
        return [.unload(activeDeck.opposite)]
    }

    /// Starts preparing `nextIndex` on the other deck.
    mutating func prepareNext(_ nextIndex: Int, skipping: Bool) -> [PlayerEffect] {
        guard let current = state.currentTrack, queue.indices.contains(nextIndex) else { return [] }
        let incoming = queue[nextIndex].track
        if incoming.id == current.id {
            // A track never crossfades into itself (no state could tell the two apart): the same
            // track again plays once this one has ended, from its start, or at once on a skip.
            guard skipping, case .playing = state else { return [] }
            index = nextIndex
            position = queue[nextIndex].loadStart
            return [.seek(activeDeck, to: position)]
        }
        next = NextItem(index: nextIndex, skipRequested: skipping)
        let load = makeLoad(deck: activeDeck.opposite, track: incoming, from: queue[nextIndex].loadStart, purpose: .next)
        state = .preparingCrossfade(currentTrack: current, nextTrack: incoming)
        return [load]
    }

    /// Arms the crossfade into the prepared next item: at its point, or now after a skip or when the
    /// point has already passed.
    mutating func scheduleCrossfade(now: Bool) -> [PlayerEffect] {
        guard var item = next, item.ready else { return [] }
        let fade = crossfadeSpec(into: item.index, skipping: item.skipRequested)
        var at: TimeInterval? = nil
        if !now, let duration {
            let start = max(0, duration - fade.duration)
            at = start > position ? start : nil
        }
        item.crossfadeScheduled = true
        next = item
        // The fade covers its length of the outgoing item's media time, so it sounds shorter when
        // that item plays faster (and ends exactly at its end).
        return [
            .scheduleCrossfade(from: activeDeck, to: activeDeck.opposite, duration: fade.duration / outgoingRate, curve: fade.curve, atPosition: at)
        ]
    }
}
