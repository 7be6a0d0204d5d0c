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
final class Deck: @unchecked Sendable {
    let node: DeckID
    let loadID: LoadID
    let track: Track
    let duration: Double?
    private let decoder: any AudioDecoder
    private let queue: FrameQueue
    /// A seek the decode thread has yet to perform, with the queue generation it belongs to.
    private let pendingSeek = Mutex<(seconds: Double, generation: Int)?>(nil)
    private var thread: Thread?

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
    /// The media's end has been given to the stretcher.
    private var stretcherFlushed = false
    /// Media frames on their way to the stretcher.
    private var stretchInput: UnsafeMutablePointer<Float>
    /// True once the render thread has seen the end of the source.
    private(set) var reachedEnd = false
    /// Gain applied to everything from this deck (a session stage's volume).
    let volume: Float

    /// Frames decoded per step of the decode thread.
    static let decodeChunkFrames = 8192

    init(node: DeckID, loadID: LoadID, track: Track, decoder: any AudioDecoder, startAt seconds: Double, lookaheadFrames: Int) {
        self.node = node
        self.loadID = loadID
        self.track = track
        let decoder: any AudioDecoder = track.loop.map { LoopingDecoder(source: decoder, loop: $0) } ?? decoder
        self.decoder = decoder
        self.duration = track.playLength(decoded: decoder.duration)
        self.queue = FrameQueue(capacityFrames: lookaheadFrames)
        self.baseFrame = AudioFormat.frames(forSeconds: seconds)
        self.volume = track.volume
        stretchInput = .allocate(capacity: Self.stretchChunkFrames * AudioFormat.channelCount)
    }

    deinit { stretchInput.deallocate() }

    /// Media frames moved into the stretcher at a time.
    static let stretchChunkFrames = 4_096

    /// Position in the track (media time) of the next frame to be heard, seconds.
    var position: Double { AudioFormat.seconds(forFrames: positionFrame) }

    /// Position in media frames: what was taken from the decoder, less what the stretcher still
    /// holds (about its output times the rate).
    var positionFrame: Int64 {
        guard let stretcher else { return baseFrame + consumedFrames }
        return baseFrame + max(0, consumedFrames - Int64((Double(stretcher.available) * rate).rounded()))
    }

    /// Plays at `rate` media seconds per second from the next frame on (a live stream stays at 1).
    func setRate(_ requested: Double) {
        let rate = track.isLive ? 1 : requested
        guard rate != self.rate else { return }
        self.rate = rate
        if let stretcher { stretcher.setRate(rate) } else { stretcher = TimeStretcher(rate: rate) }
    }

    var bufferedFrames: Int { queue.bufferedFrames }

    /// The decoder has delivered everything (or failed); what is buffered is all there is.
    var sourceEnded: Bool { queue.sourceEnded }

    /// `stop()` was called: nothing more will be decoded.
    var isStopped: Bool { queue.isClosed }

    /// The error the source failed with, once it has.
    var sourceError: PlaybackError? { queue.sourceError }

    /// A network deck: buffers to thresholds, reports fill progress and buffering timeouts.
    var isNetwork: Bool { track.isRemote }

    /// Seeks the decoder to the start position (if any) and starts decoding ahead.
    func start(initialSeek: Double?) {
        if let initialSeek, initialSeek > 0 {
            pendingSeek.withLock { $0 = (initialSeek, queue.generation) }
        }
        let thread = Thread { [self] in decodeLoop() }
        thread.name = "tonearm.deck.\(node.rawValue)"
        thread.qualityOfService = .userInitiated
        self.thread = thread
        thread.start()
    }

    /// Takes up to `frames` frames. Render mode blocks until they are decoded; real-time mode
    /// takes what is there (a shortfall is an underrun, filled with silence by the mixer).
    func pull(into buffer: UnsafeMutablePointer<Float>, frames: Int, blocking: Bool) -> (frames: Int, ended: Bool, error: PlaybackError?) {
        guard let stretcher else {
            let result = queue.pop(into: buffer, frames: frames, blocking: blocking)
            consumedFrames += Int64(result.frames)
            if result.ended { reachedEnd = true }
            return result
        }
        var produced = 0
        while true {
            produced += stretcher.read(into: buffer + produced * AudioFormat.channelCount, maxFrames: frames - produced)
            if produced == frames { return (produced, false, nil) }
            if stretcherFlushed {
                // Everything the media had is out.
                reachedEnd = true
                return (produced, true, nil)
            }
            // More media: about what the missing output needs at this rate, in chunks.
            let wanted = min(Self.stretchChunkFrames, max(256, Int((Double(frames - produced) * rate).rounded(.up))))
            let input = queue.pop(into: stretchInput, frames: wanted, blocking: blocking)
            consumedFrames += Int64(input.frames)
            stretcher.write(stretchInput, frames: input.frames)
            if let error = input.error { return (produced, true, error) }
            if input.ended {
                stretcher.flush()
                stretcherFlushed = true
            } else if input.frames == 0 {
                // Nothing decoded yet (real time): an underrun for the mixer to fill.
                return (produced, false, nil)
            }
        }
    }

    /// Nothing is left to hear: the decoder is done and nothing waits in the queue or the stretcher.
    var isDrained: Bool { sourceEnded && bufferedFrames == 0 && (stretcher?.available ?? 0) == 0 }

    /// Waits until more than `frames` frames are decoded ahead, the source ended or the deck
    /// stopped (or `deadline` passed); returns the frames buffered then.
    func waitForBuffered(moreThan frames: Int, until deadline: Date? = nil) -> Int {
        queue.waitForBuffered(moreThan: frames, until: deadline)
    }

    /// Jumps to `seconds`: drops what was decoded ahead and decodes from there.
    func seek(to seconds: Double) {
        // Flush and post the seek under one lock: the decode thread, woken by the flush, cannot
        // read `pendingSeek` before it is set and decode a stale chunk into the new generation.
        pendingSeek.withLock { $0 = (seconds, queue.flush()) }
        baseFrame = AudioFormat.frames(forSeconds: seconds)
        consumedFrames = 0
        reachedEnd = false
        stretcher?.reset()
        stretcherFlushed = false
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
