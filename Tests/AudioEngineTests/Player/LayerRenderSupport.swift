import Foundation
import PlayerCore
import TestProcesses
import Testing

@testable import AudioEngine

/// A WAV file sink that lets a test act between two blocks of a render: once the frames written
/// reach a step's frame, the render thread waits in `write` while the step's action runs (a pause
/// or a seek sent to the player). The render thread takes commands before it mixes the next
/// block, so what the action sends lands exactly on the first frame after this write, which the
/// action is given.
final class SteppedWAVSink: AudioSink, @unchecked Sendable {
    typealias Action = @Sendable (_ landing: Int) async -> Void

    let path: String
    private let wav: WAVFileSink
    private let executor: ThreadExecutor
    private let lock = NSLock()
    private var steps: [(frame: Int, action: Action)] = []
    private var written = 0

    /// `executor`: where actions run (the player's own thread, so a busy pool delays nothing).
    init(path: String, executor: ThreadExecutor) {
        self.path = path
        self.executor = executor
        wav = WAVFileSink(path: path, encoding: .float32)
    }

    var kind: String { "stepped WAV file" }
    var isRealtime: Bool { false }
    func open() throws(PlaybackError) { try wav.open() }
    func drain() throws(PlaybackError) { try wav.drain() }
    func close() { wav.close() }
    func takeRouteChange() -> RouteChange? { nil }

    func write(_ buffer: UnsafePointer<Float>, frames: Int) throws(PlaybackError) {
        try wav.write(buffer, frames: frames)
        let after = lock.withLock {
            written += frames
            return written
        }
        while let action = takeStep(reachedBy: after) {
            let done = DispatchSemaphore(value: 0)
            Task(executorPreference: executor) {
                await action(after)
                done.signal()
            }
            done.wait()
        }
    }

    /// Runs `action` once `frame` frames have been written.
    func at(_ frame: Int, _ action: @escaping Action) {
        lock.withLock {
            steps.append((frame, action))
            steps.sort { $0.frame < $1.frame }
        }
    }

    private func takeStep(reachedBy frames: Int) -> Action? {
        lock.withLock {
            guard let first = steps.first, first.frame <= frames else { return nil }
            steps.removeFirst()
            return first.action
        }
    }
}

/// Sessions with layers rendered through the real player into a WAV file, and what is measured in it.
enum LayerRender {
    static let rate = 48_000.0

    /// A bell that can be found to the sample: a chirp from 1 kHz rising `sweep` Hz a second,
    /// from phase 0 (no step at its onset), fading as (1 - t/seconds)^2 to silence.
    static func chirp(seconds: Double = 0.5, sweep: Double = 6_000) -> String {
        "0.5*(1-t/\(seconds))*(1-t/\(seconds))*sin(2*PI*(1000*t+\(sweep / 2)*t*t))"
    }

    /// The chirp's first `count` samples, as the bell file holds them.
    static func chirpTemplate(count: Int, seconds: Double = 0.5, sweep: Double = 6_000) -> [Float] {
        (0..<count).map { i in
            let t = Double(i) / rate
            return Float(0.5 * pow(1 - t / seconds, 2) * sin(2 * .pi * (1_000 * t + sweep / 2 * t * t)))
        }
    }

    /// A FLAC file of `expression` (FFmpeg's aevalsrc, in `t` seconds) on both channels.
    @discardableResult
    static func sound(_ expression: String, seconds: Double, name: String, in fixtures: AudioFixtures) throws -> URL {
        let output = fixtures.url(name)
        try fixtures.ffmpeg(["-f", "lavfi", "-i", "aevalsrc=\(expression)|\(expression):s=48000:c=stereo:d=\(seconds)", "-c:a", "flac", output.path])
        return output
    }

    /// A sine of `seconds` at `frequency` and `amplitude` (0: silence).
    @discardableResult
    static func tone(_ frequency: Double, amplitude: Double, seconds: Double, name: String, in fixtures: AudioFixtures) throws -> URL {
        try sound("\(amplitude)*sin(2*PI*\(frequency)*t)", seconds: seconds, name: name, in: fixtures)
    }

    /// Writes `json` as a session file beside the fixtures and plans it as `tonearm play` does.
    static func plan(_ json: String, in fixtures: AudioFixtures) throws -> PlayRequest {
        let file = try fixtures.write("session.json", Data(json.utf8))
        return try SessionPlanner.plan(try SessionFile.load(from: file), base: fixtures.directory)
    }

    /// Plays `request` to its end through a real player rendering into `sink`, with `prepare`
    /// setting the sink's steps first (it is given the player); returns every update.
    static func render(
        _ request: PlayRequest, into sink: SteppedWAVSink, executor: ThreadExecutor,
        configuration: PlayerStateMachine.Configuration = .init(), prepare: (AudioPlayer) -> Void = { _ in }
    ) async throws -> UpdateLog {
        let player = AudioPlayer(output: sink, options: .init(configuration: configuration, mode: .asFastAsPossible), executor: executor)
        prepare(player)
        let log = UpdateLog()
        player.record(into: log)
        try await player.start()
        try await player.play(request)
        #expect(await log.wait(timeout: 120, reached(.finished)), "the render did not finish")
        await player.shutdown()
        return log
    }

    /// The bell notices, in order.
    static func strikes(_ log: UpdateLog) async -> [BellStrike] {
        await log.updates.compactMap { if case .notice(.bell(let s), _) = $0 { s } else { nil } }
    }

    // MARK: Measuring

    /// Where each strike of `template` starts in `x`, a signal silent between strikes: every run
    /// of sound after `gap` frames of silence is a strike, found to the sample by where
    /// `template` correlates best (normalised) within 10 ms before its first audible sample.
    static func onsets(of template: [Float], in x: [Float], gap: Int = 4_800) -> [Int] {
        var found: [Int] = []
        var quiet = gap
        for n in x.indices {
            if abs(x[n]) > 1e-5 {
                if quiet >= gap { found.append(align(template, in: x, near: n)) }
                quiet = 0
            } else {
                quiet += 1
            }
        }
        return found
    }

    private static func align(_ template: [Float], in x: [Float], near n: Int) -> Int {
        var best = n
        var bestScore = -Double.infinity
        for c in max(0, n - 480)...n {
            var dot = 0.0
            var energy = 0.0
            for i in template.indices where c + i < x.count {
                dot += Double(x[c + i]) * Double(template[i])
                energy += Double(x[c + i]) * Double(x[c + i])
            }
            let score = energy > 0 ? dot / energy.squareRoot() : 0
            if score > bestScore {
                bestScore = score
                best = c
            }
        }
        return best
    }

    /// The periodic Hann window of `length` frames.
    static func hann(_ length: Int) -> [Double] {
        (0..<length).map { 0.5 - 0.5 * cos(2 * .pi * Double($0) / Double(length)) }
    }

    /// The level of the `frequency` component of `x` in the `window.count` frames from `start`: a
    /// Hann-windowed DFT. For a sine whose level moves slowly it is that level averaged with the
    /// window's weights; a sine a whole number of cycles per window away by 2 bins or more adds
    /// nothing (every frequency of these tests is a multiple of 50 Hz, a bin of 960 frames).
    static func level(of x: [Float], at frequency: Double, from start: Int, window: [Double]) -> Double {
        var re = 0.0
        var im = 0.0
        var sum = 0.0
        for (i, w) in window.enumerated() {
            let n = start + i
            let phase = 2 * .pi * frequency * Double(n) / rate
            re += w * Double(x[n]) * cos(phase)
            im -= w * Double(x[n]) * sin(phase)
            sum += w
        }
        return 2 * (re * re + im * im).squareRoot() / sum
    }

    /// `gain` averaged with the window's weights over the `window.count` frames from `start`.
    static func mean(_ gain: (Int) -> Double, from start: Int, window: [Double]) -> Double {
        var total = 0.0
        var sum = 0.0
        for (i, w) in window.enumerated() {
            total += w * gain(start + i)
            sum += w
        }
        return total / sum
    }

    /// A raised-cosine ramp from `from` to `to` over `frames` frames beginning at `begin`, as the
    /// engine's gains move: the first frame of the ramp already has its first step.
    static func ramp(_ n: Int, begin: Int, frames: Int, from: Double, to: Double) -> Double {
        if n < begin { return from }
        let k = n - begin + 1
        if k >= frames { return to }
        return from + (to - from) * (1 - cos(Double(k) / Double(frames) * .pi)) / 2
    }

    /// Largest |x[n+1] - x[n]| over `range`, and where.
    static func largestStep(_ x: [Float], in range: Range<Int>) -> (step: Float, at: Int) {
        var worst: Float = 0
        var at = range.lowerBound
        for n in max(1, range.lowerBound)..<min(x.count, range.upperBound) {
            let d = abs(x[n] - x[n - 1])
            if d > worst {
                worst = d
                at = n
            }
        }
        return (worst, at)
    }
    /// One part of what a render should hold: a sine of `frequency` and `amplitude` with phase 0
    /// at frame `origin`, times `gain` (its fades, the crossfade's curve, the duck).
    struct Component {
        let name: String
        let frequency: Double
        let amplitude: Double
        let origin: Int
        let gain: (Int) -> Double
    }

    /// The render a model of `components` under the master gain `master` should write, `count` frames.
    static func model(_ components: [Component], master: (Int) -> Double, count: Int) -> [Float] {
        (0..<count).map { n in
            var sum = 0.0
            for c in components where n >= c.origin {
                sum += c.amplitude * c.gain(n) * sin(2 * .pi * c.frequency * Double(n - c.origin) / rate)
            }
            return Float(sum * master(n))
        }
    }

    /// How far each component's level in `x` is from its level in `model`, measured the same way
    /// at its own frequency in windows every `hop` frames: the largest difference as a share of
    /// the component's full level, and where (frame).
    static func levelErrors(of x: [Float], against model: [Float], _ components: [Component], hop: Int = 480)
        -> [(name: String, error: Double, at: Int)]
    {
        let window = hann(960)
        let end = min(x.count, model.count) - window.count
        return components.map { c in
            var worst = (error: 0.0, at: 0)
            for start in stride(from: 0, to: end, by: hop) {
                let error = abs(level(of: x, at: c.frequency, from: start, window: window) - level(of: model, at: c.frequency, from: start, window: window))
                if error > worst.error { worst = (error, start + window.count / 2) }
            }
            return (c.name, worst.error / c.amplitude, worst.at)
        }
    }
}
