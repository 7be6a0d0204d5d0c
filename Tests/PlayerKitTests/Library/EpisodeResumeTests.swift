import AudioEngine
import Logging
import Foundation
import PlayerCore
import PlayerKit
import Synchronization
import TestProcesses
import Testing

/// Episodes resume where they stopped, end to end: the player renders an episode served over HTTP whose
/// connection drops, and the rendered audio is compared with the file.
///
/// The episode is a 16-bit PCM WAV whose samples number themselves (left: the frame index's low 16
/// bits, right: its high bits). Decoding it at 48 kHz stereo is exact, so every rendered frame says
/// which frame of the file it is: a repeated or a missing span shows as a jump in that count.
@Suite("Episodes resume where they were", .serialized, .blocking)
struct EpisodeResumeTests {
    static let sampleRate = 48_000

    /// A WAV file of `seconds` whose frame i holds (Int16(truncating: i), Int16(i >> 16)).
    static func countingWAV(seconds: Int) -> Data {
        PCMWAV.data(
            frames: seconds * sampleRate, sampleRate: sampleRate,
            left: { Int16(truncatingIfNeeded: $0) }, right: { Int16(truncatingIfNeeded: $0 >> 16) })
    }

    /// The file frame each rendered frame came from.
    static func frameNumbers(_ samples: [Float]) -> [Int] {
        stride(from: 0, to: samples.count - 1, by: 2).map { k in
            let low = Int(UInt16(bitPattern: Int16((samples[k] * 32_768).rounded())))
            let high = Int(Int16((samples[k + 1] * 32_768).rounded()))
            return high << 16 | low
        }
    }

    /// Frames at the start of a rendered run that the start ramp (a 10 ms de-click fade-in) scales,
    /// so they no longer carry their number exactly.
    static let rampFrames = 960

    /// Spans where the count does not go up by exactly one: (index, from, to). The start ramp's
    /// frames are skipped.
    static func jumps(_ numbers: [Int]) -> [(at: Int, from: Int, to: Int)] {
        let checked = numbers.dropFirst(rampFrames)
        return zip(checked.indices.dropFirst(), zip(checked, checked.dropFirst())).compactMap { index, pair in
            pair.1 == pair.0 + 1 ? nil : (index, pair.0, pair.1)
        }
    }

    /// Answers with `file`, cut at byte `cutAt` of the file. With ranges, every answer that starts
    /// before it is cut there, so the cut is met however the client splits its reading (FFmpeg
    /// reads the header from the first answer and seeks back to the data chunk; a slow machine
    /// may make the source ask again early). Without ranges every answer starts at 0, so only the
    /// first two are cut (the header's and the data's). `maxCuts` bounds the cuts otherwise. Later
    /// answers end as `after` says.
    static func server(
        _ file: Data, cutAt: Int, ranges: Bool, maxCuts: Int? = nil,
        after: @escaping @Sendable () -> TestHTTPServer.Response.Ending = { .complete }
    ) throws -> TestHTTPServer {
        let limit = maxCuts ?? (ranges ? Int.max : 2)
        let cuts = Mutex(0)
        return try TestHTTPServer { request in
            let start = ranges ? TestHTTPServer.Response.requestedStart(request) ?? 0 : 0
            let ending: TestHTTPServer.Response.Ending = cuts.withLock { count in
                guard start < cutAt, count < limit else { return after() }
                count += 1
                return .cut(after: cutAt - start)
            }
            return .file(file, for: request, ranges: ranges, contentType: "audio/wav", ending: ending)
        }
    }

    /// Renders as fast as possible (no pacing, so a busy machine cannot cause underruns), decoding
    /// `lookahead` seconds ahead.
    static func episodePlayer(
        giveUpAfter: Double = ResilienceDefaults.reconnectGiveUpAfter, lookahead: Double? = nil, log: LogCapture? = nil
    ) async throws -> (RadioHarness, CapturingSink) {
        let sink = CapturingSink()
        let streaming = StreamingDecoderFactory.Options()
        let configuration = PlayerStateMachine.Configuration(fadeOutAtEnd: false, reconnectGiveUpAfter: giveUpAfter)
        let harness = try await RadioHarness(
            configuration: configuration, streaming: streaming, output: sink, mode: .asFastAsPossible, lookahead: lookahead,
            logger: log?.logger(level: .debug) ?? .silent)
        return (harness, sink)
    }

    @Test(arguments: [true, false])
    func aDropMidEpisodeContinuesAtTheSameFrame(serverHonoursRanges: Bool) async throws {
        let file = Self.countingWAV(seconds: 6)
        let cutAt = file.count * 2 / 5
        let server = try Self.server(file, cutAt: cutAt, ranges: serverHonoursRanges)
        defer { server.stop() }
        // The player's and its requests' records, shown when an expectation fails.
        let log = LogCapture()
        let (radio, sink) = try await Self.episodePlayer(log: log)
        try await radio.play(server.url("/episode.wav"), kind: .episode, title: "Episode")
        await radio.waitFor("finished", timeout: 60) { $0.name == .finished }
        await radio.shutdown()

        let requests = server.requests
        let ranges = requests.map { $0.header("Range") ?? "-" }
        if serverHonoursRanges {
            // After the cut, a request asks for the byte after the last one delivered.
            #expect(
                requests.contains { TestHTTPServer.Response.requestedStart($0) == cutAt },
                "ranges: \(ranges)\n\(log.all.filter { $0.level >= .info || $0.message.hasPrefix("HTTP request") }.map(\.allText).joined(separator: "\n"))")
        } else {
            // The whole file again after the cut, read up to where the cut was.
            #expect(requests.count >= 3, "ranges: \(ranges)")
        }
        #expect(!radio.names.contains(.reconnecting) && !radio.names.contains(.failed), "states: \(radio.names)")
        let numbers = Self.frameNumbers(sink.samples)
        #expect(numbers.count == 6 * Self.sampleRate, "rendered \(numbers.count) frames")
        #expect(numbers.dropFirst(Self.rampFrames).first == Self.rampFrames)
        let jumps = Self.jumps(numbers)
        #expect(jumps.isEmpty, "the rendered audio skips or repeats: \(jumps.prefix(5))")
    }

    /// A server that goes silent mid-episode with the socket open: the listener is told (the state
    /// leaves `playing` for `buffering`), the source asks again from the byte after the last one
    /// heard, and the episode plays to its end with every frame once. In real time the wait is
    /// heard as silence; rendering as fast as possible writes none.
    @Test(arguments: [false, true])
    func aServerThatGoesSilentMidEpisodeIsShownThenResumedAtTheSameByte(realtime: Bool) async throws {
        let file = Self.countingWAV(seconds: 6)
        let silentAt = file.count * 2 / 5
        let silences = Mutex(0)
        let server = try TestHTTPServer { request in
            let start = TestHTTPServer.Response.requestedStart(request) ?? 0
            // As in the cut test, every answer that starts before the silence meets it (a few at
            // most, to bound a misbehaving client).
            let ending: TestHTTPServer.Response.Ending = silences.withLock { count in
                guard count < 6, start < silentAt else { return .complete }
                count += 1
                return .stall(after: silentAt - start)
            }
            return .file(file, for: request, ranges: true, contentType: "audio/wav", ending: ending)
        }
        defer { server.stop() }
        let sink = CapturingSink(pacedBy: realtime ? NullSink(realtime: true) : nil)
        let configuration = PlayerStateMachine.Configuration(fadeOutAtEnd: false)
        let radio = try await RadioHarness(
            configuration: configuration, output: sink, mode: realtime ? .realtime : .asFastAsPossible, lookahead: realtime ? nil : 60)
        try await radio.play(server.url("/episode.wav"), kind: .episode, title: "Episode")
        await radio.waitFor("finished", timeout: 90) { $0.name == .finished }
        await radio.shutdown()

        // Once playing: the wait is shown as buffering, then it plays on to the end.
        let names = radio.names
        let afterStart = names.firstIndex(of: .playing).map { names[($0 + 1)...] } ?? []
        let waited = afterStart.firstIndex(of: .buffering).map { afterStart[$0...] } ?? []
        #expect(waited.contains(.playing) && names.last == .finished, "states: \(names)")
        #expect(!names.contains(.failed), "states: \(names)")
        #expect(server.requests.contains { TestHTTPServer.Response.requestedStart($0) == silentAt }, "asked again from the byte after the last one heard")
        // Real time writes silence while it waits; what sounds is the file, every frame once.
        let sounded = Self.frameNumbers(Self.withoutSilence(sink.samples))
        #expect(sounded.count == 6 * Self.sampleRate, "sounded \(sounded.count) frames")
        #expect(Self.jumps(sounded).isEmpty, "the audio skips or repeats: \(Self.jumps(sounded).prefix(5))")
    }

    /// The samples without the frames of exact digital silence an underrun writes (frame 0 of the
    /// file is silent too, and is kept: it is under the start ramp).
    static func withoutSilence(_ samples: [Float]) -> [Float] {
        var kept: [Float] = []
        kept.reserveCapacity(samples.count)
        for k in stride(from: 0, to: samples.count - 1, by: 2) where k < 2 * rampFrames || samples[k] != 0 || samples[k + 1] != 0 {
            kept += [samples[k], samples[k + 1]]
        }
        return kept
    }

    @Test func aNetworkFailureKeepsThePositionAndRetryResumesFromIt() async throws {
        let file = Self.countingWAV(seconds: 6)
        let healed = Mutex(false)
        // After the cut the server is down (every answer is cut before its first byte) until the
        // fault is removed; the cut itself is met by the first two answers only, so the player's
        // reconnects, which start before it, meet the outage.
        let server = try Self.server(file, cutAt: file.count / 2, ranges: true, maxCuts: 2) { healed.withLock { $0 } ? .complete : .cut(after: 0) }
        defer { server.stop() }
        // Decoding only 1 s ahead, the listener is somewhere in the middle when the source gives up.
        let (radio, sink) = try await Self.episodePlayer(giveUpAfter: 2, lookahead: 1)
        try await radio.play(server.url("/episode.wav"), kind: .episode, title: "Episode")
        let failed = await radio.waitFor("failed", timeout: 60) { $0.name == .failed }
        let failure = try #require(failed?.failure)
        #expect(failure.recoverable)
        #expect(failure.error.isRetryable, "cause: \(failure.error.code)")
        #expect(failed?.allows(.retry) == true)
        // The episode, its position and its duration are kept for the Retry.
        guard case .failed(_, _, let resume?)? = failed else {
            Issue.record("no resume point in \(String(describing: failed))")
            return
        }
        #expect(resume.track.kind == .episode)
        #expect(resume.duration.map { abs($0 - 6) < 0.01 } == true, "duration \(String(describing: resume.duration))")
        #expect(resume.position > 1 && resume.position < 3.1, "position \(resume.position)")
        let beforeRetry = Self.frameNumbers(sink.samples)

        healed.withLock { $0 = true }
        try await radio.player.retry()
        await radio.waitFor("finished", timeout: 60, fresh: true) { $0.name == .finished }
        await radio.shutdown()

        let after = Array(Self.frameNumbers(sink.samples).dropFirst(beforeRetry.count))
        // The frame the retry started at, read past its start ramp.
        try #require(after.count > Self.rampFrames)
        let resumedAt = after[Self.rampFrames] - Self.rampFrames
        // The retry starts where the listener was: within one buffer (0.1 s) of the saved position.
        #expect(abs(Double(resumedAt) / Double(Self.sampleRate) - resume.position) <= 0.1, "resumed at frame \(resumedAt), saved \(resume.position) s")
        #expect(after.last == 6 * Self.sampleRate - 1)
        #expect(Self.jumps(after).isEmpty, "after the retry: \(Self.jumps(after).prefix(5))")
        #expect(Self.jumps(beforeRetry).isEmpty, "before the failure: \(Self.jumps(beforeRetry).prefix(5))")
    }
}

/// An output that keeps what it is given, for comparing with the source: unpaced (render mode),
/// or paced in real time by another sink it also writes to.
final class CapturingSink: AudioSink, @unchecked Sendable {
    private let lock = NSLock()
    private var buffer: [Float] = []
    private let pace: (any AudioSink)?

    init(pacedBy pace: (any AudioSink)? = nil) { self.pace = pace }

    var kind: String { "capture" }
    var isRealtime: Bool { pace?.isRealtime ?? false }
    var samples: [Float] { lock.withLock { buffer } }

    func open() throws(PlaybackError) { try pace?.open() }
    func write(_ samples: UnsafePointer<Float>, frames: Int) throws(PlaybackError) {
        lock.withLock { buffer.append(contentsOf: UnsafeBufferPointer(start: samples, count: frames * 2)) }
        try pace?.write(samples, frames: frames)
    }
    func drain() throws(PlaybackError) { try pace?.drain() }
    func close() { pace?.close() }
    func takeRouteChange() -> RouteChange? { nil }
}
