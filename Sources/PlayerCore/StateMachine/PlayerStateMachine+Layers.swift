import Foundation

/// A session's layers, the bed and the bells: which bell is next, when the bed ducks, and how the
/// session ends once its stages are over. The engine renders them on the session's clock (frames
/// heard, pauses excluded) and reports strikes, the clock and the bed; every decision is here.
///
/// - A request with layers starts them with its first load and arms its first bell; each bell is
///   armed once the one before has struck all its strikes, so a pause (the clock stops) or a
///   crossfade (the clock goes on) never moves a bell off its session time.
/// - A seek moves the clock: the bells it jumps over forward are told as skipped, never rung late
///   and never dropped silently; a seek back arms the first bell after the new time again. A bell
///   whose first strikes have rung keeps the strikes a forward seek does not pass (only those it
///   passes are told as skipped), and rings whole again after a seek back before it.
/// - The bed ducks while a stage marked as voice sounds (the incoming one from the moment its
///   crossfade begins, the outgoing one until its crossfade ends).
/// - At the natural end of the last stage the session is `fadingOut` while the bed fades out and
///   the last bell rings out (`endLayers`), then `finished`. A stop fades everything out as usual.
extension PlayerStateMachine {
    struct LayersRun: Sendable, Hashable {
        let plan: LayerPlan
        var status: SessionLayersStatus
        /// The cue whose strikes the engine is to ring next.
        var armed: BellCue?
        /// Strikes of `armed` rung so far (the engine still holds the others).
        var armedStrikesRung = 0
        /// The bed is ducked (or ducking) under a voice.
        var ducked = false
        /// The stages are over and the layers close the session.
        var ending = false
        /// A stop cut the closing short with a fade.
        var cut = false
        /// What the front ends were last told.
        var told: SessionLayersStatus?

        init(plan: LayerPlan) {
            self.plan = plan
            let first = plan.bells?.schedule.cue(after: 0, inclusive: true)
            armed = first
            status = SessionLayersStatus(
                length: plan.length, bed: plan.bed.map { _ in BedStatus(phase: .loading, level: 0) }, nextBell: first)
        }
    }

    /// The layers of the session that plays, nil when it has none.
    public var layersStatus: SessionLayersStatus? { layers?.status }

    /// The longest a session's closing may take: the bed's fade-out and a bell ringing out.
    static let longestLayerClose: TimeInterval = 60

    /// Starts the layers of `request` (after whatever played before was released).
    mutating func startLayers(of request: PlayRequest) -> [PlayerEffect] {
        guard let plan = request.layers else { return [] }
        let run = LayersRun(plan: plan)
        layers = run
        return [.startLayers(plan)] + (run.armed.map { [.armBell($0)] } ?? [])
    }

    /// Releases the layers at once, if any play.
    mutating func stopLayers() -> [PlayerEffect] {
        guard layers != nil else { return [] }
        layers = nil
        return [.stopLayers]
    }

    /// The last stage ended by itself: the layers close the session. Nil when there are no layers
    /// (or they are closing already), so the caller finishes as usual.
    mutating func closeLayers(after track: Track) -> [PlayerEffect]? {
        guard var run = layers, !run.ending else { return nil }
        run.ending = true
        var effects: [PlayerEffect] = []
        if run.plan.length == nil, let bells = run.plan.bells, bells.schedule.end {
            // The length was not known before: the end bell rings now, at the end.
            let cue = BellCue(at: run.status.elapsed, kind: .end)
            run.armed = cue
            run.status.nextBell = cue
            effects.append(.armBell(cue))
        }
        if run.ducked {
            // The voice is over: the bed comes back up as it fades away.
            run.ducked = false
            effects.append(.duckBed(false))
        }
        layers = run
        let close = min(Self.longestLayerClose, max(configuration.fadeOutDuration, run.plan.bed?.fadeOut ?? 0))
        state = .fadingOut(track: track, targetDuration: close)
        return effects + [.endLayers]
    }

    /// Whether the layers are closing the session (its stages are over).
    var layersClosing: Bool { layers?.ending == true }

    /// A stop (or a replacement) during the closing: everything fades out as on stop, once.
    mutating func cutLayersClosing() -> [PlayerEffect] {
        guard var run = layers, run.ending, !run.cut else { return [] }
        run.cut = true
        layers = run
        return [.fadeOut(duration: configuration.fadeOutDuration)]
    }

    mutating func applyLayerFact(_ event: PlayerEvent) -> [PlayerEffect] {
        guard var run = layers else { return [] }
        switch event {
        case .layersProgress(let time, let bed):
            if time.isFinite, time >= 0 { run.status.elapsed = time }
            if run.plan.bed != nil, let bed { run.status.bed = bed }
            layers = run
            return []
        case .bellStruck(let cue, let strike, let time, let audioTime):
            guard let armed = run.armed, armed == cue, let bells = run.plan.bells else { return [] }
            run.status.strikesRung += 1
            run.armedStrikesRung = max(run.armedStrikesRung, strike)
            var effects: [PlayerEffect] = [.bellRang(BellStrike(cue: cue, strike: strike, sessionTime: time, audioTime: audioTime))]
            if strike >= bells.strikes {
                let next = cue.kind == .end ? nil : bells.schedule.cue(after: cue.at)
                run.armed = next
                run.armedStrikesRung = 0
                run.status.nextBell = next
                if let next { effects.append(.armBell(next)) }
            }
            layers = run
            return effects
        case .sessionClockJumped(let from, let to):
            guard to.isFinite, to >= 0 else { return [] }
            run.status.elapsed = to
            var effects: [PlayerEffect] = []
            if let bells = run.plan.bells {
                var cue = run.armed
                var told = 0
                if to > from, let armed = run.armed, run.armedStrikesRung > 0 {
                    // A bell partly rung: the strikes the jump passes are told, not rung; the
                    // engine still holds the ones ahead of the new time, so it stays armed.
                    let times = bells.strikeTimes(of: armed)
                    for k in run.armedStrikesRung..<times.count where times[k] < to - BellSchedule.tolerance {
                        effects.append(.bellRang(BellStrike(cue: armed, strike: k + 1, sessionTime: to, skipped: true)))
                        run.armedStrikesRung = k + 1
                    }
                    if run.armedStrikesRung < times.count {
                        layers = run
                        return effects
                    }
                    cue = armed.kind == .end ? nil : bells.schedule.cue(after: armed.at)
                }
                // Forward: each bell jumped over is told, not rung. (Bounded: a 24 h seek past a
                // bell every 10 s would be thousands; the count after the bound is in the log.)
                while to > from, let c = cue, c.at < to - BellSchedule.tolerance, told < Self.mostSkippedBellsTold {
                    effects.append(.bellRang(BellStrike(cue: c, strike: 1, sessionTime: to, skipped: true)))
                    told += 1
                    cue = bells.schedule.cue(after: c.at)
                }
                let next = bells.schedule.cue(after: to, inclusive: true)
                // The armed cue is armed again when some of its strikes have rung (a seek back
                // before it rings it whole) or the engine dropped them (jumped over).
                if next != run.armed || run.armedStrikesRung > 0, !(run.ending && next == nil) {
                    run.armed = next
                    run.armedStrikesRung = 0
                    if let next { effects.append(.armBell(next)) }
                }
                run.status.nextBell = run.armed
            }
            layers = run
            return effects
        case .layersFinished:
            guard run.ending, case .fadingOut = state else { return [] }
            let effects = releaseAll()
            state = .finished
            return effects
        default:
            return []
        }
    }

    static let mostSkippedBellsTold = 100

    /// After every event: the bed ducks under a voice stage, and the front ends hear of changes.
    mutating func reconcileLayers() -> [PlayerEffect] {
        guard var run = layers else { return [] }
        var effects: [PlayerEffect] = []
        if run.plan.bed != nil, !run.ending {
            let voice = voiceSounds
            if voice != run.ducked {
                run.ducked = voice
                effects.append(.duckBed(voice))
            }
        }
        if let told = run.told, !Self.worthTelling(run.status, after: told) {
            layers = run
            return effects
        }
        run.told = run.status
        layers = run
        return effects + [.layersChanged(run.status)]
    }

    /// A stage marked as voice is current, or comes in by a crossfade that has begun.
    var voiceSounds: Bool {
        guard !queue.isEmpty, queue.indices.contains(index) else { return false }
        if queue[index].isVoice { return true }
        switch state {
        case .crossfading, .crossfadePaused:
            if let item = next, queue.indices.contains(item.index) { return queue[item.index].isVoice }
            return false
        default:
            return false
        }
    }

    /// Whether a status differs enough from the one told for the front ends to hear of it: the
    /// clock by whole seconds, the bed by phase or by 2 % of level, any bell.
    static func worthTelling(_ status: SessionLayersStatus, after told: SessionLayersStatus) -> Bool {
        if status.nextBell != told.nextBell || status.strikesRung != told.strikesRung || status.length != told.length { return true }
        if Int(status.elapsed) != Int(told.elapsed) { return true }
        switch (status.bed, told.bed) {
        case (nil, nil): return false
        case let (a?, b?): return a.phase != b.phase || abs(a.level - b.level) >= 0.02
        default: return true
        }
    }
}
