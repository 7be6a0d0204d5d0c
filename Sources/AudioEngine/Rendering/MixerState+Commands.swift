import Foundation
import Media
import PlayerCore

extension MixerState {
    /// What `command` does to the decks and the mix: the state machine's effect, performed
    /// literally. Returns the facts to report, in order. The output's own commands (`reopenOutput`,
    /// `shutdown`) are the render thread's and change nothing here.
    mutating func apply(_ command: EngineCommand) -> [EngineFact] {
        switch command {
        case .expectLoad(let node, let id):
            expected[node] = id
        case .install(let deck):
            return install(deck)
        case .loadFailed(let id, let error):
            guard let node = expected.first(where: { $0.value == id })?.key else { return [] }
            expected[node] = nil
            return [.loadFailed(id, error)]
        case .start(let node):
            guard decks[node] != nil else { return [] }
            layers?.stageStarted()
            audible.insert(node)
            active = node
            health.starts(node)
            holding = false
            master.set(0)
            master.ramp(to: 1, frames: MasterGain.declickFrames, shape: .cosine, completion: .none)
        case .unload(let node):
            unload(node)
        case .pauseOutput:
            master.ramp(to: 0, frames: MasterGain.declickFrames, shape: .cosine, completion: .hold)
            if isSilent { holding = true }
        case .resumeOutput:
            holding = false
            master.ramp(to: 1, frames: MasterGain.declickFrames, shape: .cosine, completion: .none)
        case .seek(let node, let seconds):
            let before = decks[node]?.position
            decks[node]?.seek(to: seconds)
            health.seeked(node)
            if node == active, let before, let jump = layers?.seeked(by: seconds - before) {
                return [.sessionClockJumped(from: jump.from, to: jump.to)]
            }
        case .scheduleCrossfade(let from, let to, let duration, let curve, let atPosition):
            guard decks[to] != nil, let fromDeck = decks[from] else { return [] }
            let startFrame = atPosition.map { AudioFormat.frames(forSeconds: $0) } ?? fromDeck.positionFrame
            crossfade = CrossfadeRamp(
                from: from, to: to, durationFrames: AudioFormat.frames(forSeconds: duration), curve: curve,
                startAtFromFrame: startFrame)
        case .continueCrossfade:
            crossfade?.resumeAtOriginalRate()
        case .quickFinishCrossfade(let duration):
            crossfade?.quickFinish(frames: AudioFormat.frames(forSeconds: duration))
        case .abortCrossfade(let keep):
            crossfade = nil
            let other = keep.opposite
            decks[other]?.stop()
            decks[other] = nil
            audible.remove(other)
            if decks[keep] != nil {
                audible.insert(keep)
                active = keep
            }
        case .setSpeed(let rate):
            speed = rate
            for deck in decks.values { deck.setRate(rate) }
        case .setTrimsSilence(let on):
            trimsSilence = on
            for deck in decks.values { deck.setTrimsSilence(on && layers == nil) }
        case .setVolume(let level):
            volume.ramp(to: level, frames: MasterGain.volumeRampFrames, shape: .cosine, completion: .none)
            if level > 1 { limiter.want(silentNow: isSilent || holding) }
        case .setLoudness(let levelling):
            self.levelling = levelling
            for deck in decks.values { deck.level.setLevelling(levelling) }
            if levelling.isOn { limiter.want(silentNow: isSilent || holding) }
        case .trackLoudness(let id, let loudness):
            measuredLoudness[id] = loudness
            for deck in decks.values where deck.track.id == id { deck.level.setLoudness(loudness) }
        case .fadeOut(let duration):
            master.ramp(to: 0, frames: AudioFormat.frames(forSeconds: duration), shape: .cosine, completion: .fadeOutDone)
            if isSilent {
                // Nothing is sounding: the fade is over before it began.
                holding = true
                return [.fadeOutCompleted]
            }
        case .beginLayers(let plan):
            layers?.stop()
            layers = LayerMixer(plan: plan, blockFrames: blockFrames)
            layersFinishedReported = false
        case .installLayerSounds(let bed, let bell):
            guard layers != nil else {
                bed?.stop()
                return []
            }
            layers?.install(bed: bed, bell: bell)
        case .armBell(let cue):
            layers?.arm(cue)
        case .duckBed(let on):
            layers?.setDucked(on)
        case .endLayers:
            layers?.end()
            if let layers, !layers.isSounding, !layersFinishedReported {
                layersFinishedReported = true
                return [.layersFinished]
            }
        case .stopLayers:
            layers?.stop()
            layers = nil
        case .reopenOutput, .shutdown:
            break
        }
        return []
    }

    /// A load's deck into its slot, taking the listener's settings; a load no longer expected
    /// (replaced or unloaded meanwhile) is stopped instead.
    private mutating func install(_ deck: Deck) -> [EngineFact] {
        guard expected[deck.node] == deck.loadID else {
            deck.stop()
            return []
        }
        expected[deck.node] = nil
        decks[deck.node]?.stop()
        deck.setRate(speed)
        deck.startLevelling(levelling, measured: measuredLoudness[deck.track.id])
        // A session with layers keeps its stages whole: its clock and its bells are in their time.
        if trimsSilence, layers == nil { deck.setTrimsSilence(true) }
        trimmedReported[deck.node] = 0
        decks[deck.node] = deck
        audible.remove(deck.node)
        health.installed(deck.node)
        var facts: [EngineFact] = []
        if deck.isFiniteRecording { facts.append(.loadIsRecording(deck.loadID)) }
        facts.append(.loaded(deck.loadID, duration: deck.duration))
        return facts
    }

    private mutating func unload(_ node: DeckID) {
        decks[node]?.stop()
        decks[node] = nil
        expected[node] = nil
        audible.remove(node)
        health.unloaded(node)
        if let c = crossfade, c.from == node || c.to == node {
            crossfade = nil
            // Unloading the outgoing deck mid-crossfade leaves the incoming one playing.
            if c.from == node, c.isStarted, decks[c.to] != nil {
                active = c.to
                audible.insert(c.to)
            }
        }
        if active == node { active = nil }
    }
}
