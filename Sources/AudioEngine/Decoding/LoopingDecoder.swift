import Foundation
import Media
import PlayerCore

/// A looped track's audio: its source played repeatedly as one continuous stream of frames, so the
/// deck, the mixer and the state machine see one track with one clock.
///
/// At the end of each repeat the source is sought back to its start and decoding goes on. With a
/// loop crossfade the last `overlap` frames of a repeat are held back and mixed, frame by frame,
/// with the first `overlap` frames of the next (the fade curve's outgoing and incoming gains, as
/// the mixer applies between decks), so the seam is exact to the sample and no state of the player
/// changes there. Without one the repeats are butted together: no frame lost or repeated.
///
/// The tail is found by holding back, not by trusting the container's length (which is often a
/// few milliseconds off): the cost is that each repeat's first frames wait until `overlap` more
/// have been decoded (up to 30 s of audio, a fraction of a second of work, once per repeat).
///
/// A fixed-length loop ends at exactly its length in frames, wherever that falls (inside a repeat,
/// or inside an overlap). A seek lands in the repeat that holds the position; seeking into the
/// opening of a repeat plays that opening without the previous repeat's tail over it (the
/// overlap is a seam detail, rebuilt from the next seam on).
final class LoopingDecoder: AudioDecoder {
    private let source: any AudioDecoder
    private let loop: SourceLoop
    /// Frames of one repeat as the container states it (nil: unknown); places seeks.
    private let sourceFrames: Int64?
    /// Frames shared by the end of one repeat and the start of the next.
    let overlapFrames: Int
    /// A fixed-length loop's cut, frames.
    private let limitFrames: Int64?

    /// The repeat being decoded, from 0.
    private(set) var repeatIndex = 0
    /// Position of the next frame `read` returns, frames from the start of the track.
    private var position: Int64 = 0
    /// Decoded frames of the current repeat not yet released: its tail may still be overlapped.
    private var held = SampleFIFO()
    /// Frames ready to be returned.
    private var ready = SampleFIFO()
    /// Frames the current repeat has produced (a source that yields nothing must not loop forever).
    private var decodedThisRepeat: Int64 = 0
    private var finished = false
    private var scratch: [Float]

    let duration: Double?
    var skippedCorruptPackets: Int { source.skippedCorruptPackets }
    var tags: [String: String] { source.tags }
    /// Without an overlap the loop holds nothing back and reads its source straight into the
    /// caller's buffer (`read`), so it is as safe on the render thread as its source. A seam with
    /// an overlap mixes into buffers of its own, made at each seam.
    var isSafeOnRenderThread: Bool { source.isSafeOnRenderThread && overlapFrames == 0 }

    /// Frames decoded from the source per step.
    static let chunkFrames = 4_096

    init(source: any AudioDecoder, loop: SourceLoop) {
        self.source = source
        self.loop = loop
        let sourceSeconds = source.duration.flatMap { $0 > 0 ? $0 : nil }
        sourceFrames = sourceSeconds.map { AudioFormat.frames(forSeconds: $0) }
        overlapFrames = Int(AudioFormat.frames(forSeconds: loop.overlap(source: sourceSeconds)))
        if case .seconds(let s) = loop.length {
            limitFrames = AudioFormat.frames(forSeconds: s)
        } else {
            limitFrames = nil
        }
        duration = loop.playLength(source: sourceSeconds)
        scratch = [Float](repeating: 0, count: Self.chunkFrames * AudioFormat.channelCount)
    }

    /// The repeat being decoded is the last one: nothing follows it, so nothing is held back.
    private var isLastRepeat: Bool {
        if case .repeats(let n) = loop.length { return repeatIndex >= n - 1 }
        return false
    }

    func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws(PlaybackError) -> Int {
        var wanted = maxFrames
        if let limitFrames { wanted = Int(min(Int64(wanted), max(0, limitFrames - position))) }
        guard wanted > 0 else { return 0 }
        if overlapFrames == 0 {
            // Nothing is held back for a seam: the source reads straight into the caller's buffer.
            while ready.frames == 0 && !finished {
                let n = try source.read(into: buffer, maxFrames: wanted)
                guard n == 0 else {
                    decodedThisRepeat += Int64(n)
                    position += Int64(n)
                    return n
                }
                try endOfRepeat()
            }
        } else {
            while ready.frames == 0 && !finished { try step() }
        }
        let n = ready.take(into: buffer, frames: wanted)
        position += Int64(n)
        return n
    }

    func seek(to seconds: Double) throws(PlaybackError) {
        var target = AudioFormat.frames(forSeconds: seconds.isFinite ? max(0, seconds) : 0)
        if let limitFrames { target = min(target, limitFrames) }
        ready.removeAll()
        held.removeAll()
        finished = false
        decodedThisRepeat = 0
        position = target
        guard let sourceFrames, sourceFrames > 0 else {
            // Unknown length: positions are taken as positions in the first repeat.
            repeatIndex = 0
            try source.seek(to: AudioFormat.seconds(forFrames: target))
            return
        }
        let period = max(1, sourceFrames - Int64(overlapFrames))
        var index = Int(target / period)
        if case .repeats(let n) = loop.length { index = min(index, n - 1) }
        repeatIndex = index
        try source.seek(to: AudioFormat.seconds(forFrames: target - Int64(index) * period))
    }

    func interrupt() { source.interrupt() }

    /// Decodes one chunk of the current repeat, holding back what a seam may overlap.
    private func step() throws(PlaybackError) {
        let n = try scratch.withUnsafeMutableBufferPointer { (b) throws(PlaybackError) in
            try source.read(into: b.baseAddress!, maxFrames: Self.chunkFrames)
        }
        if n > 0 {
            decodedThisRepeat += Int64(n)
            scratch.withUnsafeBufferPointer { held.append($0.baseAddress!, frames: n) }
            let keep = isLastRepeat ? 0 : overlapFrames
            if held.frames > keep { held.move(held.frames - keep, to: &ready) }
            return
        }
        try endOfRepeat()
    }

    /// The source has ended this repeat: the seam into the next one (its tail overlapped with
    /// the next opening), or the end of the track.
    private func endOfRepeat() throws(PlaybackError) {
        let alreadyCut = limitFrames.map { position + Int64(ready.frames) >= $0 } ?? false
        if isLastRepeat || decodedThisRepeat == 0 || alreadyCut {
            held.move(held.frames, to: &ready)
            finished = true
            return
        }
        try source.seek(to: 0)
        repeatIndex += 1
        decodedThisRepeat = 0
        let tail = held.takeAll()
        let k = tail.count / AudioFormat.channelCount
        guard k > 0 else { return }
        // The next repeat's opening, as long as the tail (silence if the source is shorter).
        var head = [Float](repeating: 0, count: tail.count)
        var got = 0
        while got < k {
            let r = try head.withUnsafeMutableBufferPointer { (b) throws(PlaybackError) in
                try source.read(into: b.baseAddress! + got * AudioFormat.channelCount, maxFrames: k - got)
            }
            if r == 0 { break }
            got += r
        }
        decodedThisRepeat += Int64(got)
        // Progress advances before each frame's gains, as in the mixer's crossfade: the first
        // frame is 1/k into the fade and the last one is fully the new repeat.
        var mixed = [Float](repeating: 0, count: tail.count)
        for i in 0..<k {
            let g = loop.crossfade.curve.gains(at: Double(i + 1) / Double(k))
            for c in 0..<AudioFormat.channelCount {
                let j = i * AudioFormat.channelCount + c
                mixed[j] = Float(Double(tail[j]) * g.outgoing + Double(head[j]) * g.incoming)
            }
        }
        mixed.withUnsafeBufferPointer { ready.append($0.baseAddress!, frames: k) }
    }
}

/// Interleaved frames first in, first out, consumed from the front without moving the rest each
/// time (a 30 s overlap holds almost three million samples).
struct SampleFIFO {
    private var storage: [Float] = []
    private var head = 0

    var frames: Int { (storage.count - head) / AudioFormat.channelCount }

    mutating func append(_ samples: UnsafePointer<Float>, frames: Int) {
        storage.append(contentsOf: UnsafeBufferPointer(start: samples, count: frames * AudioFormat.channelCount))
    }

    /// Copies up to `frames` frames out of the front; returns how many.
    mutating func take(into buffer: UnsafeMutablePointer<Float>, frames wanted: Int) -> Int {
        let n = min(wanted, frames)
        guard n > 0 else { return 0 }
        let count = n * AudioFormat.channelCount
        storage.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + head, count: count) }
        head += count
        compact()
        return n
    }

    /// Moves `frames` frames from the front of this FIFO to the back of `other`.
    mutating func move(_ frames: Int, to other: inout SampleFIFO) {
        let count = min(frames, self.frames) * AudioFormat.channelCount
        guard count > 0 else { return }
        other.storage.append(contentsOf: storage[head..<(head + count)])
        head += count
        compact()
    }

    /// Everything, emptying the FIFO.
    mutating func takeAll() -> [Float] {
        let all = Array(storage[head...])
        removeAll()
        return all
    }

    mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        head = 0
    }

    /// Drops consumed samples once they are most of the storage (amortised O(1) per sample).
    private mutating func compact() {
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 65_536 && head * 2 > storage.count {
            storage.removeFirst(head)
            head = 0
        }
    }
}
