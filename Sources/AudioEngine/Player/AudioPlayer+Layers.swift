import Foundation
import Media
import PlayerCore

/// A session's layers: opening the bed and the bell sound on a loader thread of their own, and
/// handing them to the render thread, which plays them on the session's clock.
extension AudioPlayer {
    /// The bed and the bell are local (a file or a built-in sound), so opening them is quick.
    /// The session's first stage is not told loaded before they are (its `loaded` waits in
    /// `heldLoad`), so the session starts with its layers and its start bell rings on its frame.
    /// A layer that cannot open is a non-fatal, typed problem: the session plays without it.
    func startLayers(_ plan: LayerPlan) {
        layerLoad?.cancel()
        heldLoad = nil
        engine.enqueue(.beginLayers(plan))
        let cancellation = LoadCancellation()
        layerLoad = cancellation
        let engine = self.engine
        let decoders = self.decoders
        let lookahead = Int(AudioFormat.frames(forSeconds: max(1, options.lookahead)))
        let executor = self.executor
        Thread.detachNewThread { [weak self] in
            var problems: [PlaybackError] = []
            var bedDeck: Deck?
            if let bed = plan.bed {
                do throws(PlaybackError) {
                    // A file repeats as long as the session lasts; built-in noise never ends.
                    let endless = BuiltInSound(url: bed.url).map { !$0.isFinite } ?? false
                    let track = Track(
                        id: "layer:bed", url: bed.url, kind: .file, title: "bed",
                        loop: endless ? nil : SourceLoop(.repeats(SessionFile.maximumRepeats), crossfade: bed.loopCrossfade))
                    let decoder = try decoders.makeDecoder(for: track, load: cancellation)
                    let deck = Deck(node: .a, loadID: Self.layerLoadID, track: track, decoder: decoder, startAt: 0, lookaheadFrames: lookahead)
                    deck.start(initialSeek: nil)
                    bedDeck = deck
                } catch {
                    problems.append(error)
                }
            }
            var bell: BellSound?
            if let bells = plan.bells {
                do throws(PlaybackError) {
                    let track = Track(id: "layer:bell", url: bells.url, kind: .file, title: "bell")
                    bell = try BellSound.decode(try decoders.makeDecoder(for: track, load: cancellation))
                } catch {
                    problems.append(error)
                }
            }
            guard !cancellation.isCancelled else {
                bedDeck?.stop()
                return
            }
            engine.enqueue(.installLayerSounds(bed: bedDeck, bell: bell))
            Task(executorPreference: executor) { await self?.layersOpened(cancellation, problems: problems) }
        }
    }

    /// The layers are with the render thread: a stage load held for them goes on.
    private func layersOpened(_ load: LoadCancellation, problems: [PlaybackError]) {
        for problem in problems { notify(.nonFatal(problem)) }
        guard layerLoad === load else { return }
        layerLoad = nil
        if let held = heldLoad {
            heldLoad = nil
            apply(held)
        }
    }

    /// Whether a stage's `loaded` must wait for the layers still opening.
    func holdsForLayers(_ event: PlayerEvent) -> Bool {
        guard layerLoad != nil, case .loaded = event else { return false }
        heldLoad = event
        return true
    }

    /// The bed's deck is no deck of the state machine's: it has a load id of its own.
    static let layerLoadID = LoadID(UInt64.max)

    func stopLayers() {
        layerLoad?.cancel()
        layerLoad = nil
        // A stage load held for these layers belongs to the session that is over.
        heldLoad = nil
        engine.enqueue(.stopLayers)
    }

    /// A fact of the layers, as the state machine's event.
    func layerEvent(_ fact: EngineFact) -> PlayerEvent? {
        switch fact {
        case .layersProgress(let time, let bed): .layersProgress(sessionTime: time, bed: bed)
        case .bellStruck(let cue, let strike, let time, let audioTime): .bellStruck(cue, strike: strike, sessionTime: time, audioTime: audioTime)
        case .sessionClockJumped(let from, let to): .sessionClockJumped(from: from, to: to)
        case .layersFinished: .layersFinished
        default: nil
        }
    }
}
