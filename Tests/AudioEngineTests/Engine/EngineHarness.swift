import Foundation
import Media
import PlayerCore
import Testing

@testable import AudioEngine

/// A steady test tone: every frame is (left, right), for `frames` frames. Used to check gains on
/// the mixer's output exactly (the decoder is not what these tests test).
final class SteadyToneDecoder: AudioDecoder, @unchecked Sendable {
    let left: Float
    let right: Float
    let frames: Int
    private var position = 0
    var duration: Double? { Double(frames) / Double(AudioFormat.sampleRate) }
    var skippedCorruptPackets: Int { 0 }

    init(left: Float, right: Float, seconds: Double) {
        self.left = left
        self.right = right
        self.frames = Int(seconds * Double(AudioFormat.sampleRate))
    }

    func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws(PlaybackError) -> Int {
        let n = min(maxFrames, frames - position)
        for i in 0..<max(0, n) {
            buffer[2 * i] = left
            buffer[2 * i + 1] = right
        }
        position += max(0, n)
        return max(0, n)
    }

    func seek(to seconds: Double) throws(PlaybackError) {
        position = min(frames, max(0, Int(seconds * Double(AudioFormat.sampleRate))))
    }
}

/// A decoder whose every sample is its own position in seconds divided by 100, so the output
/// shows exactly which part of the source was played (a seek is visible as a jump in value).
final class PositionDecoder: AudioDecoder, @unchecked Sendable {
    let frames: Int
    private var position = 0
    var duration: Double? { Double(frames) / Double(AudioFormat.sampleRate) }
    var skippedCorruptPackets: Int { 0 }

    init(seconds: Double) { frames = Int(seconds * Double(AudioFormat.sampleRate)) }

    func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws(PlaybackError) -> Int {
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
        position = min(frames, max(0, Int((seconds * Double(AudioFormat.sampleRate)).rounded())))
    }
}

/// Keeps every frame written, as a file sink would.
final class CapturingSink: AudioSink, @unchecked Sendable {
    private let lock = NSLock()
    private var samples: [Float] = []
    let kind = "capture"
    let isRealtime = false
    func open() throws(PlaybackError) {}
    func write(_ buffer: UnsafePointer<Float>, frames: Int) throws(PlaybackError) {
        lock.lock()
        samples.append(contentsOf: UnsafeBufferPointer(start: buffer, count: frames * 2))
        lock.unlock()
    }
    func drain() throws(PlaybackError) {}
    func close() {}
    func takeRouteChange() -> RouteChange? { nil }
    var captured: [Float] {
        lock.lock()
        defer { lock.unlock() }
        return samples
    }
    var left: [Float] { stride(from: 0, to: captured.count, by: 2).map { captured[$0] } }
    var right: [Float] { stride(from: 1, to: captured.count, by: 2).map { captured[$0] } }
}

/// Drives a `RenderEngine` in render mode and plays the actor's part: the test receives each
/// report and decides what to send before acknowledging it, so every command lands on an exact
/// frame.
final class EngineHarness: @unchecked Sendable {
    let sink = CapturingSink()
    private(set) var engine: RenderEngine!
    private let condition = NSCondition()
    private var inbox: [(EngineReport, UInt64)] = []
    private var loadCounter: UInt64 = 0

    init() {
        engine = RenderEngine(sink: sink, mode: .asFastAsPossible) { [weak self] report, sequence in
            guard let self else { return }
            condition.lock()
            inbox.append((report, sequence))
            condition.broadcast()
            condition.unlock()
        }
        engine.start()
    }

    /// Puts a steady tone on a deck (as a finished load would).
    func load(_ node: DeckID, left: Float, right: Float, seconds: Double) -> LoadID {
        load(node, decoder: SteadyToneDecoder(left: left, right: right, seconds: seconds), seconds: seconds)
    }

    /// Puts any decoder on a deck (as a finished load would).
    func load(_ node: DeckID, decoder: any AudioDecoder, seconds: Double) -> LoadID {
        loadCounter += 1
        let id = LoadID(loadCounter)
        let track = Track(id: "tone-\(node)-\(loadCounter)", url: URL(fileURLWithPath: "/tone"), kind: .file, duration: seconds)
        let deck = Deck(node: node, loadID: id, track: track, decoder: decoder, startAt: 0, lookaheadFrames: 1 << 22)
        deck.start(initialSeek: nil)
        engine.enqueue(.expectLoad(node, id))
        engine.enqueue(.install(deck))
        return id
    }

    /// The next report (waiting up to 10 s); the engine waits until it is acknowledged.
    func next() -> (EngineReport, UInt64)? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(10)
        while inbox.isEmpty {
            if !condition.wait(until: deadline) { return nil }
        }
        return inbox.removeFirst()
    }

    /// Acknowledges reports until `stop` says a report is the one wanted (left unacknowledged).
    func run(until stop: (EngineFact) -> Bool) -> (EngineReport, UInt64)? {
        while let (report, sequence) = next() {
            if stop(report.fact) { return (report, sequence) }
            engine.acknowledge(sequence)
        }
        return nil
    }

    /// Acknowledges `count` `loaded` reports (one per `load`).
    func acknowledgeLoads(_ count: Int) {
        for _ in 0..<count {
            guard let (report, sequence) = next() else {
                Issue.record("a load was not reported")
                return
            }
            if case .loaded = report.fact {} else { Issue.record("expected loaded, got \(report.fact)") }
            engine.acknowledge(sequence)
        }
    }

    func shutdown() { engine.shutdown() }

    /// Plays a steady 0.8 tone on deck A, sends `commands` when it reaches `at` seconds and
    /// renders on to `until`: the frame the commands landed on (nil when a report never came).
    func changeMidTone(at: Double, send commands: [EngineCommand], until: Double) -> Int? {
        _ = load(.a, left: 0.8, right: 0.8, seconds: 5)
        acknowledgeLoads(1)
        engine.enqueue(.start(.a))
        guard let reached = run(until: { if case .position(_, let p, _, _) = $0 { p >= at } else { false } }) else {
            Issue.record("no position report at \(at) s")
            return nil
        }
        commands.forEach(engine.enqueue)
        engine.acknowledge(reached.1)
        guard let later = run(until: { if case .position(_, let p, _, _) = $0 { p >= until } else { false } }) else {
            Issue.record("no position report at \(until) s")
            return nil
        }
        engine.acknowledge(later.1)
        return Int(reached.0.audioTime * 48_000)
    }
}

/// Largest |x[n+1] - 2x[n] + x[n-1]|: a click shows up as a large second difference even where
/// the level itself is smooth.
func maxSecondDifference(_ x: [Float], in range: Range<Int>) -> Float {
    var worst: Float = 0
    let lo = max(1, range.lowerBound)
    let hi = min(x.count - 1, range.upperBound)
    guard lo < hi else { return 0 }
    for n in lo..<hi { worst = max(worst, abs(x[n + 1] - 2 * x[n] + x[n - 1])) }
    return worst
}

func dBFS(_ x: Float) -> Double { 20 * log10(max(Double(x), 1e-12)) }
