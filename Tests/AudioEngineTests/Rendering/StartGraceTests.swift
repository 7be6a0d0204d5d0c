import Foundation
import Media
import PlayerCore
import TestProcesses
import Testing

@testable import AudioEngine

/// Real time, right after a seek: the deck's first frames are awaited instead of opening with
/// silence and an underrun. A file's wait is bounded by its decoder; a network deck's is counted
/// on the audio clock (`DeckHealth.startGraceFrames` of silence), and the render thread keeps
/// taking commands meanwhile. The sink here is not paced by a clock: it lets the test hold the
/// render thread at a chosen frame, so nothing depends on how fast anything runs.
@Suite("Awaiting a deck's first frames in real time", .blocking)
struct StartGraceTests {
    /// One second played to its end; then a seek whose decoding waits until the test lets it go.
    private static func playedToTheEnd(_ kind: Track.Kind) throws -> (RealtimeEngine, GatedPositionDecoder, Deck) {
        let decoder = GatedPositionDecoder(seconds: 1)
        let url = kind == .file ? URL(fileURLWithPath: "/position") : URL(string: "http://episodes.invalid/position.mp3")!
        let track = Track(id: "position", url: url, kind: kind, duration: 1)
        let deck = Deck(node: .a, loadID: LoadID(1), track: track, decoder: decoder, startAt: 0, lookaheadFrames: 1 << 20)
        deck.start(initialSeek: nil)
        // Everything decoded before it starts, so the first second cannot underrun.
        while !deck.sourceEnded { _ = deck.waitForBuffered(moreThan: deck.bufferedFrames) }
        let h = RealtimeEngine()
        h.engine.enqueue(.expectLoad(.a, LoadID(1)))
        h.engine.enqueue(.install(deck))
        h.engine.enqueue(.start(.a))
        try #require(h.wait(for: { $0 == .trackEnded(.a) }) != nil, "the first second played to its end")
        #expect(h.sink.frames == 48_000)
        return (h, decoder, deck)
    }

    @Test func aFileSeekOpensWithTheTargetsFramesNotWithSilence() throws {
        let (h, decoder, deck) = try Self.playedToTheEnd(.file)
        defer { h.shutdown(releasing: decoder) }
        // Every later write waits until the decoder has delivered all it has, so no block can
        // outrun it: an underrun here could only come from the seek itself.
        h.sink.beforeWrite = { _ in _ = deck.waitForBuffered(moreThan: .max) }
        h.engine.enqueue(.seek(.a, 0.9))
        try #require(decoder.waitUntilHeld(), "the decoder reached the seek's first read")
        decoder.release()
        try #require(h.wait(for: { $0 == .trackEnded(.a) }, after: 1) != nil)
        #expect(!h.facts.contains(.underrun(.a)))
        let after = Array(h.sink.left.dropFirst(48_000))
        #expect(after.count == 4_800, "0.9 s to the end")
        #expect(abs((after.first ?? 0) - 0.009) < 1e-6, "the first frame after the seek is the target's")
        #expect(after.allSatisfy { $0 > 0 }, "no silence before it")
    }

    @Test func aNetworkDeckIsGivenHalfASecondOfAudioBeforeItsSilenceIsAnUnderrun() throws {
        let (h, decoder, _) = try Self.playedToTheEnd(.episode)
        defer { h.shutdown(releasing: decoder) }
        // Holds the render thread once the grace's silence is written: the underrun is reported
        // before the block that follows is written.
        h.sink.beforeWrite = { written in if written >= 72_000 { h.sink.hold() } }
        h.engine.enqueue(.seek(.a, 0.5))
        guard let underrun = h.wait(for: { $0 == .underrun(.a) }) else {
            Issue.record("no underrun while the decoder never delivers")
            return
        }
        #expect(underrun.audioTime == 1.5, "after exactly 0.5 s of audio from the seek")
        let grace = h.sink.left.dropFirst(48_000).prefix(24_000)
        #expect(grace.count == 24_000 && grace.allSatisfy { $0 == 0 }, "silence meanwhile")
    }

    @Test func aNetworkDecksFramesThatComeWithinTheGraceOpenWithoutAnUnderrun() throws {
        let (h, decoder, deck) = try Self.playedToTheEnd(.episode)
        defer { h.shutdown(releasing: decoder) }
        // A tenth of a second of silence after the seek, then the decoder delivers everything
        // before the next block.
        let released = Flag()
        h.sink.beforeWrite = { written in
            guard written >= 52_800, released.set() else { return }
            _ = decoder.waitUntilHeld()
            decoder.release()
            _ = deck.waitForBuffered(moreThan: .max)
        }
        h.engine.enqueue(.seek(.a, 0.5))
        try #require(h.wait(for: { $0 == .trackEnded(.a) }, after: 1) != nil)
        #expect(!h.facts.contains(.underrun(.a)))
        let after = Array(h.sink.left.dropFirst(48_000))
        let silence = after.prefix { $0 == 0 }.count
        #expect(silence >= 4_800 && silence < Int(DeckHealth.startGraceFrames))
        #expect(abs((after.dropFirst(silence).first ?? 0) - 0.005) < 1e-6, "then the target's frames")
        #expect(after.dropFirst(silence).prefix { $0 > 0 }.count == 24_000, "all of them, without a gap")
    }

    @Test func aNetworkDeckAwaitingItsFirstFramesStillTakesCommands() throws {
        let (h, decoder, _) = try Self.playedToTheEnd(.episode)
        defer { h.shutdown(releasing: decoder) }
        // A tenth of a second into the wait, the listener stops: the fade-out is heard (as
        // silence) and completes long before the grace would end.
        let sent = Flag()
        h.sink.beforeWrite = { written in
            if written >= 52_800, sent.set() { h.engine.enqueue(.fadeOut(duration: 0.01)) }
        }
        h.engine.enqueue(.seek(.a, 0.5))
        guard let faded = h.wait(for: { $0 == .fadeOutCompleted }) else {
            Issue.record("the fade-out never completed")
            return
        }
        #expect(faded.audioTime < 1.5)
        #expect(!h.facts.contains(.underrun(.a)))
    }
}

// MARK: - Support

/// A real-time render thread (no lockstep) whose reports the test reads as they come.
final class RealtimeEngine: @unchecked Sendable {
    let sink = HoldingSink()
    private(set) var engine: RenderEngine!
    private let condition = NSCondition()
    private var reports: [EngineReport] = []

    init() {
        engine = RenderEngine(sink: sink, mode: .realtime) { [weak self] report, _ in
            guard let self else { return }
            condition.lock()
            reports.append(report)
            condition.broadcast()
            condition.unlock()
        }
        engine.start()
    }

    var facts: [EngineFact] {
        condition.lock()
        defer { condition.unlock() }
        return reports.map(\.fact)
    }

    /// The first report matching `wanted` among those stamped later than `audioTime` seconds
    /// (waiting up to 10 s).
    func wait(for wanted: (EngineFact) -> Bool, after audioTime: Double = -1) -> EngineReport? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(10)
        while true {
            if let found = reports.first(where: { $0.audioTime > audioTime && wanted($0.fact) }) { return found }
            if !condition.wait(until: deadline) { return nil }
        }
    }

    func shutdown(releasing decoder: GatedPositionDecoder) {
        sink.beforeWrite = nil
        sink.letGo()
        decoder.release()
        engine.shutdown()
    }
}

/// Keeps the first minutes written (left channel), counts every frame, and runs `beforeWrite`
/// (with the frames written so far) on the render thread before each block, where a test can
/// act on an exact frame or hold the thread until `letGo`.
final class HoldingSink: AudioSink, @unchecked Sendable {
    private let condition = NSCondition()
    private var kept: [Float] = []
    private var written = 0
    private var holding = false
    private var hook: (@Sendable (Int) -> Void)?
    let kind = "holding"
    let isRealtime = true

    var beforeWrite: (@Sendable (Int) -> Void)? {
        get { condition.withLock { hook } }
        set { condition.withLock { hook = newValue } }
    }

    func open() throws(PlaybackError) {}
    func write(_ buffer: UnsafePointer<Float>, frames: Int) throws(PlaybackError) {
        let (hook, before) = condition.withLock { (self.hook, written) }
        hook?(before)
        condition.lock()
        while holding { condition.wait() }
        if kept.count < 48_000 * 60 {
            for i in 0..<frames { kept.append(buffer[2 * i]) }
        }
        written += frames
        condition.unlock()
    }
    func drain() throws(PlaybackError) {}
    func close() {}
    func takeRouteChange() -> RouteChange? { nil }

    var frames: Int { condition.withLock { written } }
    var left: [Float] { condition.withLock { kept } }

    /// Holds the render thread in this write until `letGo`.
    func hold() { condition.withLock { holding = true } }

    func letGo() {
        condition.withLock {
            holding = false
            condition.broadcast()
        }
    }
}

/// `PositionDecoder` whose reads after a seek wait until the test releases them.
final class GatedPositionDecoder: AudioDecoder, @unchecked Sendable {
    let frames: Int
    private let condition = NSCondition()
    private var position = 0
    private var open = true
    private var held = false
    private var interrupted = false
    var duration: Double? { Double(frames) / Double(AudioFormat.sampleRate) }
    var skippedCorruptPackets: Int { 0 }

    init(seconds: Double) { frames = Int(seconds * Double(AudioFormat.sampleRate)) }

    func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws(PlaybackError) -> Int {
        condition.lock()
        while !open && !interrupted {
            held = true
            condition.broadcast()
            condition.wait()
        }
        held = false
        let stop = interrupted
        condition.unlock()
        if stop { return 0 }
        let n = max(0, min(maxFrames, frames - position))
        for i in 0..<n {
            let value = Float(Double(position + i) / Double(AudioFormat.sampleRate) / 100)
            buffer[2 * i] = value
            buffer[2 * i + 1] = value
        }
        position += n
        return n
    }

    func seek(to seconds: Double) throws(PlaybackError) {
        condition.withLock { open = false }
        position = min(frames, max(0, Int((seconds * Double(AudioFormat.sampleRate)).rounded())))
    }

    func interrupt() {
        condition.withLock {
            interrupted = true
            condition.broadcast()
        }
    }

    /// Waits (up to 10 s) until a read waits to be released.
    func waitUntilHeld() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(10)
        while !held {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }

    func release() {
        condition.withLock {
            open = true
            condition.broadcast()
        }
    }
}

/// Set once, by whichever thread comes first.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var done = false

    /// True for the call that set it.
    func set() -> Bool {
        lock.withLock {
            defer { done = true }
            return !done
        }
    }
}
