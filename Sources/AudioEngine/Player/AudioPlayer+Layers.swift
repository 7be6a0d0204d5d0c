import Foundation
import Media
import PlayerCore

/// A session's layers: opening the bed and the bell sound on a loader thread of their own, and
/// handing them to the render thread, which plays them on the session's clock.
extension AudioPlayer {
    /// The bed and the bell are local (a file or a built-in sound), so opening them is quick; a
    /// bell due before its sound is open strikes as soon as it is (and says when it sounded).
    /// A layer that cannot open is a non-fatal, typed problem: the session plays without it.
    func startLayers(_ plan: LayerPlan) {
        layerLoad?.cancel()
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
                    let track = Track(
                        id: "layer:bed", url: bed.url, kind: .file, title: "bed",
                        loop: SourceLoop(.repeats(SessionFile.maximumRepeats), crossfade: bed.loopCrossfade))
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
            if !problems.isEmpty {
                Task(executorPreference: executor) { await self?.layersFailed(problems) }
            }
        }
    }

    /// The bed's deck is no deck of the state machine's: it has a load id of its own.
    static let layerLoadID = LoadID(UInt64.max)

    func stopLayers() {
        layerLoad?.cancel()
        layerLoad = nil
        engine.enqueue(.stopLayers)
    }

    private func layersFailed(_ problems: [PlaybackError]) {
        for problem in problems { notify(.nonFatal(problem)) }
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
