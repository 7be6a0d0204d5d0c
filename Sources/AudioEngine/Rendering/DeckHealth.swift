import Foundation
import Media
import PlayerCore

/// How each deck is doing as the render thread pulls from it: its first frames awaited after a
/// start or a seek, underruns and refills, a failed source, the end. Each change is reported once,
/// as a fact (`EngineFact`); what it means for playback is the state machine's to decide.
struct DeckHealth {
    /// Rendering as fast as possible: pulls block until the decoder delivers, so a wait is told
    /// when it begins and ends, and the audio never has a gap.
    let blocking: Bool
    /// Thresholds of network decks.
    let network: NetworkBuffering

    private(set) var underrunning: Set<DeckID> = []
    /// Decks whose source failed: reported once, then left alone until unloaded.
    private var failed: Set<DeckID> = []
    private var endReported: Set<DeckID> = []
    /// Decks whose first frames are awaited after a start or a seek, with the frames of silence a
    /// network deck may still be given before its shortfall is an underrun (see `pull`).
    private var awaiting: [DeckID: Int64] = [:]
    /// Decks whose source ran out in the block being rendered; reported once it is written.
    private var endedThisBlock: [DeckID] = []

    /// Real time: an underrun of a local file ends when this much is buffered again.
    static let refillFrames = 24_000
    /// Real time: after a start or a seek, a network deck's first frames are awaited for this
    /// much audio (0.5 s) before the silence is an underrun.
    static let startGraceFrames: Int64 = 24_000

    init(blocking: Bool, network: NetworkBuffering) {
        self.blocking = blocking
        self.network = network
    }

    // MARK: What commands and the mix tell it

    /// A new deck in `node`'s slot: nothing of the old one's health carries over.
    mutating func installed(_ node: DeckID) {
        endReported.remove(node)
        forgetTrouble(node)
    }

    /// The deck in `node`'s slot was unloaded.
    mutating func unloaded(_ node: DeckID) { forgetTrouble(node) }

    /// The deck starts sounding (a start, or the incoming side of a crossfade): its first frames
    /// are awaited.
    mutating func starts(_ node: DeckID) { awaiting[node] = Self.startGraceFrames }

    /// The deck jumped: it may end and fail anew, and its first frames are awaited.
    mutating func seeked(_ node: DeckID) {
        endReported.remove(node)
        failed.remove(node)
        awaiting[node] = Self.startGraceFrames
    }

    func hasReportedEnd(_ node: DeckID) -> Bool { endReported.contains(node) }

    func hasFailed(_ node: DeckID) -> Bool { failed.contains(node) }

    /// A deck ran out in the block being rendered.
    var hasEndedThisBlock: Bool { !endedThisBlock.isEmpty }

    /// The decks that ran out in the block just rendered, cleared by the call.
    mutating func takeEnded() -> [DeckID] {
        defer { endedThisBlock.removeAll() }
        return endedThisBlock
    }

    /// Most frames the next block may have for `deck`: the silence left to it while its first
    /// frames are awaited (so an underrun is told on the grace's exact frame), else nil.
    func framesBeforeGraceEnds(_ deck: Deck) -> Int? {
        guard !blocking, deck.isNetwork, let left = awaiting[deck.node], left > 0 else { return nil }
        return Int(left)
    }

    /// Frames buffered again that end an underrun: about 2 s for a network deck, less for a file.
    func refillFrames(for deck: Deck) -> Int {
        deck.isNetwork ? Int(AudioFormat.frames(forSeconds: network.refillSeconds)) : Self.refillFrames
    }

    /// While a network deck underruns in real time: its fill towards the refill threshold.
    func refillProgress(_ deck: Deck) -> Float? {
        guard deck.isNetwork, !blocking, underrunning.contains(deck.node) else { return nil }
        return Float(min(1, Double(deck.bufferedFrames) / Double(refillFrames(for: deck))))
    }

    // MARK: Pulling

    /// Pulls from a deck, reporting underruns, refills, ends and failures through `emit` (with
    /// whether the report waits for the player, in render mode). Returns the frames pulled and
    /// false when rendering must stop for this block.
    mutating func pull(
        _ deck: Deck, into buffer: inout [Float], frames: Int, emit: (EngineFact, _ lockstep: Bool) -> Void
    ) -> (frames: Int, rendering: Bool) {
        if !blocking, let left = awaiting[deck.node] {
            // Right after a start or a seek the decoder is a moment behind: its first frames are
            // awaited rather than opened with silence and an underrun. How long, no wall clock
            // says; the deck itself does:
            // - A file's decoder reads local storage: its next chunk, its end or its failure
            //   comes within one decode step, each of which wakes this wait (never polled), as
            //   does the deck being stopped (an unload or a shutdown cancels its load).
            // - A network deck's next chunk waits on the network, whose time is the state
            //   machine's (`seeking`, the buffering and stall timeouts): the render thread must
            //   not block on it, and keeps taking commands. It writes silence instead, counted on
            //   the audio clock, and calls the shortfall an underrun once `startGraceFrames` of
            //   it are written (paced in real time by the sink).
            if deck.isNetwork {
                if left > 0, deck.bufferedFrames < frames, !deck.sourceEnded, !deck.isStopped {
                    awaiting[deck.node] = left - Int64(frames)
                    return (0, true)
                }
            } else {
                var buffered = deck.bufferedFrames
                while buffered < frames && !deck.sourceEnded && !deck.isStopped {
                    buffered = deck.waitForBuffered(moreThan: buffered)
                }
            }
        }
        awaiting[deck.node] = nil
        if !blocking, underrunning.contains(deck.node) {
            // An underrunning deck stays silent until it holds its refill threshold again (or its
            // source has ended): played as they trickle in, fragments would stutter while the
            // listener is told "buffering", and the fill shown would never grow.
            guard deck.bufferedFrames >= refillFrames(for: deck) || deck.sourceEnded || deck.isStopped else { return (0, true) }
            underrunning.remove(deck.node)
            emit(.refilled(deck.node), true)
        }
        // Rendering blocks until the decoder delivers. A network deck says when that wait begins
        // and ends (the machine decides whether the wait is worth showing), never whether it is
        // too long; no lockstep, the wait is the point.
        let starving = blocking && deck.isNetwork && deck.bufferedFrames < frames && !deck.sourceEnded
        if starving, !underrunning.contains(deck.node) {
            underrunning.insert(deck.node)
            emit(.underrun(deck.node), false)
        }
        let result = buffer.withUnsafeMutableBufferPointer { samples in
            let result = deck.pull(into: samples.baseAddress!, frames: frames, blocking: blocking)
            deck.level.observe(samples.baseAddress!, frames: result.frames)
            return result
        }
        if blocking, underrunning.contains(deck.node), result.frames > 0 || result.ended {
            underrunning.remove(deck.node)
            emit(.refilled(deck.node), false)
        }
        if let error = result.error {
            if !failed.contains(deck.node) {
                failed.insert(deck.node)
                emit(.deckFailed(deck.node, error), true)
            }
            return (result.frames, false)
        }
        if result.ended {
            if !endReported.contains(deck.node) {
                endReported.insert(deck.node)
                endedThisBlock.append(deck.node)
                if let heard = Self.heardLoudness(deck) { emit(heard, false) }
            }
        } else if blocking {
            // Rendering: underruns were handled around the blocking pull.
        } else if result.frames < frames, !underrunning.contains(deck.node) {
            underrunning.insert(deck.node)
            emit(.underrun(deck.node), true)
        }
        return (result.frames, true)
    }

    /// A network episode heard whole, start to end, with its loudness unknown: what was heard is
    /// its loudness from now on. (A file is measured whole in the background instead.)
    private static func heardLoudness(_ deck: Deck) -> EngineFact? {
        guard deck.isNetwork, !deck.track.isLive, deck.level.heardFromStart, !deck.level.isKnown,
            let integrated = deck.level.heardIntegrated, let loudness = Loudness(integrated: integrated, source: .heard)
        else { return nil }
        return .loudnessHeard(deck.track, loudness)
    }

    /// Forgets a deck's underrun and failure (a new deck in its slot, or it was unloaded).
    private mutating func forgetTrouble(_ node: DeckID) {
        failed.remove(node)
        underrunning.remove(node)
    }
}
