import Foundation
import Media
import PlayerCore

/// Decoded frames between a deck's decode thread (producer) and the render thread (consumer).
///
/// Hand-written because no library here offers a blocking, growable single-producer queue of
/// audio frames with end-of-stream, error and flush (seek) semantics. It stores chunks rather than
/// a fixed ring, so render mode can decode minutes ahead without preallocating.
/// `@unchecked Sendable`: its fields are guarded by an `NSCondition`, whose waits `Mutex` does not
/// offer, and the compiler cannot see which lock guards a field.
final class FrameQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var chunks: [[Float]] = []
    private var headOffset = 0  // samples already consumed from chunks[0]
    private var bufferedSamples = 0
    private var ended = false
    private var failure: PlaybackError?
    private var closed = false
    /// Threads blocked in `push` / `pop`: the other side signals only when someone waits, so a
    /// steady stream of chunks costs no wake-ups.
    private var producersWaiting = 0
    private var consumersWaiting = 0
    /// Bumped by `flush`; a producer holding an older generation's data drops it.
    private(set) var generation = 0
    /// Most frames buffered before the producer waits.
    let capacityFrames: Int

    init(capacityFrames: Int) { self.capacityFrames = max(1, capacityFrames) }

    var bufferedFrames: Int {
        condition.lock()
        defer { condition.unlock() }
        return bufferedSamples / AudioFormat.channelCount
    }

    /// Producers blocked in `push` now.
    var blockedProducers: Int {
        condition.lock()
        defer { condition.unlock() }
        return producersWaiting
    }

    /// Producer: waits while full; returns false when the queue was closed or flushed meanwhile.
    func push(_ samples: [Float], generation expected: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !closed && generation == expected && bufferedSamples / AudioFormat.channelCount >= capacityFrames {
            producersWaiting += 1
            condition.wait()
            producersWaiting -= 1
        }
        guard !closed, generation == expected else { return false }
        chunks.append(samples)
        bufferedSamples += samples.count
        if consumersWaiting > 0 { condition.broadcast() }
        return true
    }

    /// Producer: the source ended (cleanly, or with `error`).
    func finish(error: PlaybackError?, generation expected: Int) {
        condition.lock()
        defer { condition.unlock() }
        guard generation == expected else { return }
        ended = true
        failure = error
        condition.broadcast()
    }

    /// Producer: waits until a flush or close happens (called after the source ended).
    func waitForFlushOrClose(generation expected: Int) {
        condition.lock()
        defer { condition.unlock() }
        while !closed && generation == expected { condition.wait() }
    }

    /// The producer has reported the end of the source (frames may still be buffered).
    var sourceEnded: Bool {
        condition.lock()
        defer { condition.unlock() }
        return ended
    }

    /// The error the source ended with, if it failed.
    var sourceError: PlaybackError? {
        condition.lock()
        defer { condition.unlock() }
        return failure
    }

    var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closed
    }

    /// Consumer: copies up to `frames` frames into `buffer`. With `blocking`, waits until that many
    /// are there or the source ended. Returns the frames copied, whether the source has ended and
    /// nothing is left, and the error it ended with.
    func pop(into buffer: UnsafeMutablePointer<Float>, frames: Int, blocking: Bool) -> (frames: Int, ended: Bool, error: PlaybackError?) {
        condition.lock()
        defer { condition.unlock() }
        let wanted = frames * AudioFormat.channelCount
        if blocking {
            while !closed && !ended && bufferedSamples < wanted {
                consumersWaiting += 1
                condition.wait()
                consumersWaiting -= 1
            }
        }
        var copied = 0
        while copied < wanted, !chunks.isEmpty {
            let chunk = chunks[0]
            let available = chunk.count - headOffset
            let n = min(available, wanted - copied)
            chunk.withUnsafeBufferPointer { src in
                (buffer + copied).update(from: src.baseAddress! + headOffset, count: n)
            }
            copied += n
            headOffset += n
            if headOffset == chunk.count {
                chunks.removeFirst()
                headOffset = 0
            }
        }
        bufferedSamples -= copied
        // Only once the producer's own condition holds: a decoded chunk is several render blocks,
        // and waking it after each block (to find the queue still full) cost the stream a wake-up
        // of the decode thread per block for one push in four.
        if copied > 0 && producersWaiting > 0 && bufferedSamples / AudioFormat.channelCount < capacityFrames { condition.broadcast() }
        let drained = ended && bufferedSamples == 0
        return (copied / AudioFormat.channelCount, drained, drained ? failure : nil)
    }

    /// Consumer side, without taking anything: waits until more than `frames` frames are buffered,
    /// the source ended, or the queue was closed or flushed; returns the frames buffered then.
    /// With a `deadline`, returns at the latest then.
    func waitForBuffered(moreThan frames: Int, until deadline: Date? = nil) -> Int {
        condition.lock()
        defer { condition.unlock() }
        let start = generation
        while !closed && !ended && generation == start && bufferedSamples / AudioFormat.channelCount <= frames {
            consumersWaiting += 1
            let signalled = deadline.map { condition.wait(until: $0) } ?? { condition.wait(); return true }()
            consumersWaiting -= 1
            if !signalled { break }
        }
        return bufferedSamples / AudioFormat.channelCount
    }

    /// Drops everything buffered and starts a new generation (seek).
    func flush() -> Int {
        condition.lock()
        defer { condition.unlock() }
        chunks.removeAll()
        headOffset = 0
        bufferedSamples = 0
        ended = false
        failure = nil
        generation += 1
        condition.broadcast()
        return generation
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
