import Foundation
import Media
import PlayerCore
import Synchronization

/// One of the two decks: a decoder, the thread that decodes ahead into a `FrameQueue`, and the
/// position of what the render thread has taken from it.
///
/// Decoding runs on its own thread so the next stage decodes while the current one plays (on two
/// cores, rendering a session decodes two stages at once).
///
/// A looped track (a session stage with repeats or a fixed length) is read through a
/// `LoopingDecoder`: the deck's frames run on across the repeats, its position and duration are the
/// whole track's, and the seam (back to back, or overlapped by the loop crossfade) happens here,
/// below the state machine, which sees one track.
///
/// A decoder that only computes its frames (`isSafeOnRenderThread`: a bed of noise, a silent
/// stage) needs no thread: the render thread reads it as it mixes, with no queue and no copy.
///
/// `@unchecked Sendable`: the playing state (position, rate, stretcher, trimmer, level) is the
/// render thread's, handed over from the loader through the engine's command queue; the decode
/// thread touches only `decoder`, `queue` (an `NSCondition`) and `pendingSeek` (a `Mutex`).
final class Deck: @unchecked Sendable {
    let node: DeckID
    let loadID: LoadID
    /// The track as the decoder found it: a live address holding a finished recording is
    /// episode-like here (its speed, silence trimming), as it is in the state machine.
    let track: Track
    /// The decoder found a finished recording behind the track's address.
    let isFiniteRecording: Bool
    let duration: Double?
    private let decoder: any AudioDecoder
    private let queue: FrameQueue
    /// A seek the decode thread has yet to perform, with the queue generation it belongs to.
    private let pendingSeek = Mutex<(seconds: Double, generation: Int)?>(nil)
    /// The decoder is read where its frames are taken (`take`), not on a decode thread. Its end
    /// and failure are then kept here, touched by the loader until the deck is installed and by
    /// the render thread after (the engine's command queue orders the two).
    private let readsInPlace: Bool
    private var inPlaceEnded = false
    private var inPlaceError: PlaybackError?

    /// Frames of the track before the first frame in the queue (start position, seeks).
    private(set) var baseFrame: Int64
    /// Media frames taken by the render thread since `baseFrame`.
    private(set) var consumedFrames: Int64 = 0
    /// Media seconds per second played (render thread only); 1 for a live stream whatever the
    /// listener's speed.
    private(set) var rate: Double = 1
    /// Made the first time the rate is not 1, so a deck at normal speed is passed through
    /// frame-exactly.
    private var stretcher: TimeStretcher?
    /// Made the first time silence trimming is asked for; after the decoder, before the stretcher.
    private var trimmer: SilenceTrimmer?
    /// The media's end has been given to the trimmer and the stretcher.
    private var processingFlushed = false
    /// Media frames on their way to the trimmer or the stretcher.
    private var mediaChunk: UnsafeMutablePointer<Float>
    /// Trimmed frames on their way to the stretcher.
    private var trimmedChunk: UnsafeMutablePointer<Float>
    /// True once the render thread has seen the end of the source.
    private(set) var reachedEnd = false
    /// Gain applied to everything from this deck (a session stage's volume).
    let volume: Float
    /// Loudness levelling of this deck (render thread); set up by the engine when it installs the deck.
    private(set) var level: DeckLevel

    /// Frames decoded per step of the decode thread.
    static let decodeChunkFrames = 8192

    init(node: DeckID, loadID: LoadID, track: Track, decoder: any AudioDecoder, startAt seconds: Double, lookaheadFrames: Int) {
        self.node = node
        self.loadID = loadID
        isFiniteRecording = decoder.isFiniteRecording
        let track = track.isLive && decoder.isFiniteRecording ? track.asRecording() : track
        self.track = track
        isNetwork = track.isRemote
        let decoder: any AudioDecoder = track.loop.map { LoopingDecoder(source: decoder, loop: $0) } ?? decoder
        self.decoder = decoder
        readsInPlace = decoder.isSafeOnRenderThread
        self.duration = track.playLength(decoded: decoder.duration)
        self.queue = FrameQueue(capacityFrames: lookaheadFrames)
        self.baseFrame = AudioFormat.frames(forSeconds: seconds)
        self.volume = track.volume
        level = DeckLevel(levelling: .off, track: track, startsAtBeginning: false)
        mediaChunk = .allocate(capacity: Self.stretchChunkFrames * AudioFormat.channelCount)
        trimmedChunk = .allocate(capacity: Self.stretchChunkFrames * AudioFormat.channelCount)
    }

    deinit {
        mediaChunk.deallocate()
        trimmedChunk.deallocate()
    }

    /// Media frames moved into the stretcher at a time.
    static let stretchChunkFrames = 4_096

    /// Position in the track (media time) of the next frame to be heard, seconds.
    var position: Double { AudioFormat.seconds(forFrames: positionFrame) }

    /// Position in media frames: what was taken from the decoder, less what the stretcher still
    /// holds (about its output times the rate).
    var positionFrame: Int64 {
        guard stretcher != nil || trimmer != nil else { return baseFrame + consumedFrames }
        let waiting = Double(trimmer?.pendingFrames ?? 0) + Double(stretcher?.available ?? 0) * rate
        return baseFrame + max(0, consumedFrames - Int64(waiting.rounded()))
    }

    /// Levels this deck's loudness the engine's way from its first frame; `measured` is a
    /// loudness the engine learned after the track was queued.
    func startLevelling(_ levelling: LoudnessLevelling, measured: Loudness?) {
        var track = track
        if let measured { track.loudness = measured }
        level = DeckLevel(levelling: levelling, track: track, startsAtBeginning: baseFrame == 0 && consumedFrames == 0)
    }

    /// Media frames silence trimming has left out of this deck so far.
    var trimmedFrames: Int64 { trimmer?.trimmedFrames ?? 0 }

    /// Shortens long silences from the next frame on (never in a live stream).
    func setTrimsSilence(_ on: Bool) {
        guard !track.isLive else { return }
        if let trimmer { trimmer.isEnabled = on } else if on { trimmer = SilenceTrimmer() }
    }

    /// Plays at `rate` media seconds per second from the next frame on (a live stream stays at 1).
    func setRate(_ requested: Double) {
        let rate = track.isLive ? 1 : requested
        guard rate != self.rate else { return }
        self.rate = rate
        if let stretcher { stretcher.setRate(rate) } else { stretcher = TimeStretcher(rate: rate) }
    }

    /// Frames ready to take. A deck read in place always has a full lookahead until its end.
    var bufferedFrames: Int {
        guard readsInPlace else { return queue.bufferedFrames }
        return inPlaceEnded ? 0 : queue.capacityFrames
    }

    /// The decoder has delivered everything (or failed); what is buffered is all there is.
    var sourceEnded: Bool { readsInPlace ? inPlaceEnded : queue.sourceEnded }

    /// `stop()` was called: nothing more will be decoded.
    var isStopped: Bool { queue.isClosed }

    /// The error the source failed with, once it has.
    var sourceError: PlaybackError? { readsInPlace ? inPlaceError : queue.sourceError }

    /// A network deck: buffers to thresholds, reports fill progress and buffering timeouts.
    /// Kept, not derived: the render thread asks several times per block, and the track's
    /// answer parses its URL's scheme each time.
    let isNetwork: Bool

    /// Seeks the decoder to the start position (if any) and starts decoding ahead.
    func start(initialSeek: Double?) {
        if readsInPlace {
            if let initialSeek, initialSeek > 0 { seekInPlace(to: initialSeek) }
            return
        }
        if let initialSeek, initialSeek > 0 {
            pendingSeek.withLock { $0 = (initialSeek, queue.generation) }
        }
        // The running thread holds the deck until its loop ends; the deck never holds the thread.
        // Foundation's `Thread` keeps its closure after it returns, so a deck that kept its thread
        // would keep itself, its decoder's FFmpeg contexts and its queued frames, for good.
        let thread = Thread { [self] in decodeLoop() }
        thread.name = "tonearm.deck.\(node.rawValue)"
        thread.qualityOfService = .userInitiated
        thread.start()
    }

    /// Takes up to `frames` frames. Render mode blocks until they are decoded; real-time mode
    /// takes what is there (a shortfall is an underrun, filled with silence by the mixer).
    func pull(into buffer: UnsafeMutablePointer<Float>, frames: Int, blocking: Bool) -> (frames: Int, ended: Bool, error: PlaybackError?) {
        guard stretcher != nil || trimmer != nil else {
            let result = take(into: buffer, frames: frames, blocking: blocking)
            consumedFrames += Int64(result.frames)
            if result.ended { reachedEnd = true }
            return result
        }
        var produced = 0
        while true {
            produced += readProcessed(into: buffer + produced * AudioFormat.channelCount, maxFrames: frames - produced)
            if produced == frames { return (produced, false, nil) }
            if processingFlushed {
                // Everything the media had is out.
                reachedEnd = true
                return (produced, true, nil)
            }
            // More media: about what the missing output needs at this rate, in chunks.
            let wanted = min(Self.stretchChunkFrames, max(256, Int((Double(frames - produced) * rate).rounded(.up))))
            let input = take(into: mediaChunk, frames: wanted, blocking: blocking)
            consumedFrames += Int64(input.frames)
            feed(mediaChunk, frames: input.frames)
            if let error = input.error { return (produced, true, error) }
            if input.ended {
                finishProcessing()
                processingFlushed = true
            } else if input.frames == 0 {
                // Nothing decoded yet (real time): an underrun for the mixer to fill.
                return (produced, false, nil)
            }
        }
    }

    /// Media frames from the queue the decode thread fills, or read from the decoder right here.
    /// Ends and failures as the queue tells them: `ended` once nothing is left, with the error.
    private func take(into buffer: UnsafeMutablePointer<Float>, frames: Int, blocking: Bool) -> (frames: Int, ended: Bool, error: PlaybackError?) {
        guard readsInPlace else { return queue.pop(into: buffer, frames: frames, blocking: blocking) }
        var got = 0
        while got < frames, !inPlaceEnded {
            do throws(PlaybackError) {
                let n = try decoder.read(into: buffer + got * AudioFormat.channelCount, maxFrames: frames - got)
                if n == 0 { inPlaceEnded = true }
                got += n
            } catch {
                inPlaceEnded = true
                inPlaceError = error
            }
        }
        return (got, inPlaceEnded, inPlaceEnded ? inPlaceError : nil)
    }

    private func seekInPlace(to seconds: Double) {
        inPlaceEnded = false
        inPlaceError = nil
        do throws(PlaybackError) { try decoder.seek(to: seconds) } catch {
            inPlaceEnded = true
            inPlaceError = error
        }
    }

    /// Output of the processing chain: the stretcher's when there is one, else the trimmer's.
    private func readProcessed(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) -> Int {
        if let stretcher { return stretcher.read(into: buffer, maxFrames: maxFrames) }
        return trimmer?.read(into: buffer, maxFrames: maxFrames) ?? 0
    }

    /// Media into the chain: trimmer, then stretcher.
    private func feed(_ samples: UnsafeMutablePointer<Float>, frames: Int) {
        guard let trimmer else {
            stretcher?.write(samples, frames: frames)
            return
        }
        trimmer.write(samples, frames: frames)
        moveTrimmedToStretcher()
    }

    private func moveTrimmedToStretcher() {
        guard let trimmer, let stretcher else { return }
        while trimmer.availableFrames > 0 {
            let frames = trimmer.read(into: trimmedChunk, maxFrames: Self.stretchChunkFrames)
            stretcher.write(trimmedChunk, frames: frames)
        }
    }

    private func finishProcessing() {
        trimmer?.flush()
        moveTrimmedToStretcher()
        stretcher?.flush()
    }

    /// Nothing is left to hear: the decoder is done and nothing waits in the queue or the stretcher.
    var isDrained: Bool { sourceEnded && bufferedFrames == 0 && (stretcher?.available ?? 0) == 0 && (trimmer?.pendingFrames ?? 0) == 0 }

    /// Waits until more than `frames` frames are decoded ahead, the source ended or the deck
    /// stopped (or `deadline` passed); returns the frames buffered then.
    func waitForBuffered(moreThan frames: Int, until deadline: Date? = nil) -> Int {
        readsInPlace ? bufferedFrames : queue.waitForBuffered(moreThan: frames, until: deadline)
    }

    /// Jumps to `seconds`: drops what was decoded ahead and decodes from there.
    func seek(to seconds: Double) {
        if readsInPlace {
            seekInPlace(to: seconds)
        } else {
            // Flush and post the seek under one lock: the decode thread, woken by the flush, cannot
            // read `pendingSeek` before it is set and decode a stale chunk into the new generation.
            pendingSeek.withLock { $0 = (seconds, queue.flush()) }
        }
        baseFrame = AudioFormat.frames(forSeconds: seconds)
        consumedFrames = 0
        level.seeked()
        reachedEnd = false
        stretcher?.reset()
        trimmer?.reset()
        processingFlushed = false
    }

    /// Stops the decode thread (waking a read blocked on the network); the deck is not used afterwards.
    func stop() {
        queue.close()
        decoder.interrupt()
    }

    private func decodeLoop() {
        var scratch = [Float](repeating: 0, count: Self.decodeChunkFrames * AudioFormat.channelCount)
        var generation = queue.generation
        while !queue.isClosed {
            let seek = pendingSeek.withLock { pending in
                defer { pending = nil }
                return pending
            }
            if let seek {
                generation = seek.generation
                do throws(PlaybackError) {
                    try decoder.seek(to: seek.seconds)
                } catch {
                    queue.finish(error: error, generation: generation)
                    queue.waitForFlushOrClose(generation: generation)
                    generation = queue.generation
                    continue
                }
            }
            let count: Int
            do throws(PlaybackError) {
                count = try scratch.withUnsafeMutableBufferPointer { buffer throws(PlaybackError) in
                    try decoder.read(into: buffer.baseAddress!, maxFrames: Self.decodeChunkFrames)
                }
            } catch {
                queue.finish(error: error, generation: generation)
                queue.waitForFlushOrClose(generation: generation)
                generation = queue.generation
                continue
            }
            if count == 0 {
                queue.finish(error: nil, generation: generation)
                queue.waitForFlushOrClose(generation: generation)
                generation = queue.generation
                continue
            }
            let samples = Array(scratch[0..<(count * AudioFormat.channelCount)])
            if !queue.push(samples, generation: generation) {
                generation = queue.generation
            }
        }
    }
}
