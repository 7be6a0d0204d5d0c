import Foundation

/// The alarm while it sounds: the fade-in, the deadline for the source, the fallback, and the
/// listener's hand that ends the machine's part.
extension AlarmMachine {
    mutating func startSounding(due: Date, listenerVolume: Volume, at now: AlarmInstant) -> [AlarmEffect] {
        let target = alarm.volume ?? listenerVolume
        let fading = alarm.fadeIn > 0
        var s = Sounding(due: due, startedAt: now.clock, target: target, fading: fading, volume: listenerVolume, listenerVolume: listenerVolume)
        var effects: [AlarmEffect] = []
        // Silence (or the volume at once) before anything plays, so nothing sounds at full volume.
        effects += setVolume(fading ? Volume(0) : target, &s)
        effects += [.play(.source), .measure(true), .scheduleTimer(.deadline, after: configuration.soundWithin)]
        if fading { effects.append(.scheduleTimer(.fadeStep, after: configuration.fadeStep)) }
        phase = .sounding(s)
        return effects
    }

    mutating func sounding(_ event: AlarmEvent, _ s: inout Sounding, at now: AlarmInstant) -> [AlarmEffect] {
        switch event {
        case .playing(let play, let ids) where play == s.playing:
            s.trackIDs = ids
            return []
        case .sourceUnavailable(let error) where s.playing == .source:
            return fallBack(&s, because: error)
        case .timerFired(.fadeStep):
            return fadeStep(&s, at: now)
        case .timerFired(.deadline):
            guard s.playing == .source, !s.heard else { return [] }
            let silent = s.state?.name == .playing || s.state?.name == .crossfading
            let cause = silent ? PlaybackError(.sourceSilent, underlying: "nothing above \(Int(configuration.silentBelow)) LUFS in \(Int(configuration.soundWithin)) s") : s.cause
            return fallBack(&s, because: cause ?? PlaybackError(.bufferingTimeout, underlying: "not playing \(Int(configuration.soundWithin)) s after the alarm started"))
        case .outputLoudness(let loudness):
            return heard(loudness, &s, at: now)
        case .volume(let volume):
            if let index = s.unconfirmedVolumes.firstIndex(of: volume) {
                s.unconfirmedVolumes.removeFirst(index + 1)
                s.volumeConfirmed = true
                return []
            }
            // A player that has just started tells its volume once, before any the machine set.
            if !s.volumeConfirmed, volume == s.listenerVolume { return [] }
            // A volume the machine did not set: the listener's hand, which the fade must not undo.
            s.fading = false
            return handOver(s, restoreVolume: false)
        case .playerState(let state):
            return playerState(state, &s)
        default:
            return []
        }
    }

    private mutating func playerState(_ state: PlayerState, _ s: inout Sounding) -> [AlarmEffect] {
        let ownTrack = state.currentTrack.map { s.trackIDs.contains($0.id) }
        switch state {
        case .failed(let error, _, let point):
            // A failure of the alarm's own item (or of one that never had a track to show).
            guard !s.trackIDs.isEmpty, point.map({ s.trackIDs.contains($0.track.id) }) ?? true else { return [] }
            // The tone itself failing leaves nothing to fall back to: told, and the alarm waits.
            guard s.playing == .source else { return [.tell(.failed(due: s.due, error))] + handOver(s, restoreVolume: true) }
            return fallBack(&s, because: error)
        case .idle, .finished:
            // The listener stopped it, or it played to its end.
            guard s.seenOwnState else { return [] }
            return handOver(s, restoreVolume: true)
        case .paused, .crossfadePaused:
            guard ownTrack == true else { return [] }
            return handOver(s, restoreVolume: true)
        default:
            guard ownTrack == true else {
                // Something else plays after the alarm's item had played: the listener chose it.
                return s.seenOwnState && state.currentTrack != nil ? handOver(s, restoreVolume: true) : []
            }
            s.seenOwnState = true
            s.state = state
            if case .reconnecting(_, _, _, _, let cause) = state, s.cause == nil { s.cause = cause }
            return []
        }
    }

    private mutating func heard(_ loudness: Double?, _ s: inout Sounding, at now: AlarmInstant) -> [AlarmEffect] {
        guard s.playing == .source, !s.heard else { return [] }
        // What the output was sent, less the volume the machine set: the source's own loudness.
        // At volume 0 (the first moments of the fade) the output says nothing about the source.
        guard s.state?.name == .playing || s.state?.name == .crossfading, let loudness, s.volume.level > 0 else {
            s.loudSince = nil
            return []
        }
        guard loudness - s.volume.decibels >= configuration.silentBelow else {
            s.loudSince = nil
            return []
        }
        guard let since = s.loudSince else {
            s.loudSince = now.clock
            return []
        }
        guard now.clock.since(since) >= configuration.heardFor else { return [] }
        s.heard = true
        var effects: [AlarmEffect] = [.cancelTimer(.deadline), .measure(false), .tell(.sounded(due: s.due))]
        if !s.fading { effects += handOver(s, restoreVolume: false) }
        return effects
    }

    private mutating func fadeStep(_ s: inout Sounding, at now: AlarmInstant) -> [AlarmEffect] {
        guard s.fading else { return [] }
        let progress = min(1, max(0, now.clock.since(s.startedAt) / alarm.fadeIn))
        var effects = setVolume(Volume(s.target.level * progress), &s)
        guard progress >= 1 else { return effects + [.scheduleTimer(.fadeStep, after: configuration.fadeStep)] }
        s.fading = false
        // Full volume: once the source is heard (or the tone plays) nothing is left to decide.
        if s.heard || s.playing == .fallback { effects += handOver(s, restoreVolume: false) }
        return effects
    }

    private mutating func fallBack(_ s: inout Sounding, because error: PlaybackError) -> [AlarmEffect] {
        s.playing = .fallback
        s.trackIDs = []
        s.seenOwnState = false
        s.state = nil
        // Told before the tone starts, so the listener reads why before the tone's own states.
        var effects: [AlarmEffect] = [.cancelTimer(.deadline), .measure(false), .tell(.fellBack(due: s.due, error)), .play(.fallback)]
        if !s.fading { effects += handOver(s, restoreVolume: false) }
        return effects
    }

    private func setVolume(_ volume: Volume, _ s: inout Sounding) -> [AlarmEffect] {
        guard volume != s.volume else { return [] }
        s.volume = volume
        s.unconfirmedVolumes.append(volume)
        return [.setVolume(volume)]
    }

    /// The machine's part is over: the playback is the listener's (or plays on by itself), and the
    /// alarm waits for its next time.
    private mutating func handOver(_ s: Sounding, restoreVolume: Bool) -> [AlarmEffect] {
        let now = AlarmInstant(wall: s.due, clock: s.startedAt)
        var sounding = s
        if !restoreVolume { sounding.fading = false }
        return finishSounding(sounding) + wait(after: now)
    }

    /// Timers and measuring stopped, and the listener's volume back when the fade was cut short.
    func finishSounding(_ s: Sounding) -> [AlarmEffect] {
        var effects: [AlarmEffect] = [.cancelTimer(.fadeStep), .cancelTimer(.deadline)]
        if !s.heard && s.playing == .source { effects.append(.measure(false)) }
        if s.fading, s.volume != s.target { effects.append(.setVolume(s.target)) }
        return effects
    }
}
