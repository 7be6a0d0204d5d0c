import AudioEngine
import Foundation
import PlayerCore
import PlayerKit
import Presentation
import Streaming
import TestProcesses
import Testing

/// The radio path against a real Icecast 2 (started by the test, fed by an ffmpeg source) and the
/// fault-injecting proxy: a crash and restart, the source leaving, stalls, trickles, cuts and
/// hostile titles. Icecast or ffmpeg failing to start fails the test (never a skip).
@Suite("Internet radio against a real Icecast", .serialized, .blocking)
struct IcecastRadioTests {
    /// Starts Icecast off the cooperative pool (starting it blocks for a second or two, and the
    /// player under test needs the pool's few threads meanwhile).
    static func startIcecast() async throws -> IcecastServer {
        try await onOwnThread { try IcecastServer() }
    }

    /// Positions published after the last `playing` state: audio flowing again.
    static func positionsAfterLastPlaying(_ updates: [PlayerUpdate]) -> [Double] {
        guard let start = updates.lastIndex(where: { if case .state(.playing, _, _) = $0 { true } else { false } }) else { return [] }
        return updates[start...].compactMap { if case .position(let s, _, _) = $0 { s } else { nil } }
    }

    /// Connection updates in order: whether each said a reconnect was under way in the background.
    static func reconnectFlags(_ updates: [PlayerUpdate]) -> [Bool] {
        var flags: [Bool] = []
        for update in updates {
            guard case .connection(let quality, _) = update, flags.last != quality.reconnecting else { continue }
            flags.append(quality.reconnecting)
        }
        return flags
    }

    @Test func icecastDownLongerThanTheBufferReconnectsWithACountdown() async throws {
        let server = try await Self.startIcecast()
        defer { server.stop() }
        let radio = try await RadioHarness()
        try await radio.playUntilPlaying(server.streamURL)
        // Down until the buffer has run dry and the countdown shows: how long the player's buffer
        // lasts depends on how far behind the live edge a busy machine let it fall (what the
        // socket still held plays first), so the server stays away until then, whatever it takes.
        await onOwnThread { server.kill() }
        let reconnecting = try #require(await radio.waitFor("reconnecting", timeout: 120) { $0.name == .reconnecting })
        let mark = radio.states.count
        try await onOwnThread { try server.restart() }
        guard case .reconnecting(_, _, let max, _, let cause) = reconnecting else { return }
        #expect(max == BackoffPolicy.reconnect.maxAttempts)
        #expect(cause.isRetryable)
        // The drop was noticed at once and tried in the background first; the flag was over
        // when the buffer ran dry and the visible countdown began.
        #expect(Array(Self.reconnectFlags(radio.updates).drop { !$0 }.prefix(2)) == [true, false])
        // Every scheduled attempt was shown with its countdown.
        let countdowns = radio.updates.compactMap { update -> Double? in
            if case .state(.reconnecting(_, _, _, let at?, _), _, let now) = update { return at.since(now) } else { return nil }
        }
        #expect(!countdowns.isEmpty && countdowns.allSatisfy { $0 > 0 && $0 <= 30 * 1.2 })
        #expect(reconnecting.statusText(in: .english, now: PlayerTime(seconds: 0)).hasPrefix("Reconnecting"))
        await radio.waitFor("playing again", timeout: 60, after: mark) { $0.name == .playing }
        #expect(!radio.names.contains(.finished))
        #expect(await radio.waitUntil("audio flowing again", timeout: 10) {
            let positions = Self.positionsAfterLastPlaying(radio.updates)
            return (positions.last ?? 0) > (positions.first ?? 0) + 0.5
        })
        // One incident, from the drop in the background to playing again.
        let events = try await radio.recordedEvents()
        #expect(events.count == 1)
        #expect(events.first?.resolution == .automaticRetry)
        #expect(events.first?.operation == "playStation")
        await radio.shutdown()
    }

    @Test func aCutConnectionIsReconnectedWhileTheBufferPlays_andNobodyHearsIt() async throws {
        let server = try await Self.startIcecast()
        defer { server.stop() }
        let proxy = try FaultProxy(upstreamPort: server.port)
        defer { proxy.stop() }
        // Ten seconds ahead (what a listener who chose a large buffer gets), against a reconnect on
        // loopback that takes milliseconds. The margin is for the machine, not the player: on a
        // loaded machine the ffmpeg source feeding Icecast falls behind for seconds at a time, and
        // a live stream cannot be ahead of its source. A four-second buffer ran dry that way.
        let radio = try await RadioHarness(network: NetworkBuffering(startSeconds: 10, refillSeconds: 2), lookahead: 12)
        try await radio.playUntilPlaying(proxy.url(IcecastServer.mount))
        // Cut only once the buffer holds what was asked for, so the cut meets the margin whatever
        // the start-up cost.
        #expect(await radio.waitUntil("eight seconds buffered before the cut", timeout: 60) {
            radio.updates.contains { if case .connection(let q, _) = $0 { (q.bufferedSeconds ?? 0) >= 8 } else { false } }
        })
        let mark = radio.updates.count
        proxy.mode = .cut
        proxy.mode = .pass
        #expect(await radio.waitUntil("the reconnect in the background to begin and end", timeout: 20) {
            Array(Self.reconnectFlags(Array(radio.updates[mark...])).drop { !$0 }.prefix(2)) == [true, false]
        })
        // The state never left playing: no buffering, no countdown.
        let after = radio.updates[mark...].compactMap { if case .state(let state, _, _) = $0 { state.name } else { nil } }
        #expect(after.allSatisfy { $0 == .playing }, "\(after)")
        #expect(radio.states.last?.name == .playing)
        // A connection event says what happened: one reconnect this hour, so the rating is fair.
        let last = try #require(radio.updates.last { if case .connection = $0 { true } else { false } })
        guard case .connection(let quality, _) = last else { return }
        #expect(quality.reconnectsLastHour == 1 && quality.stallsLastHour == 0)
        #expect(quality.rating == .fair)
        #expect(quality.bitrate == 320)
        // The seconds held are shown while it plays, once the deck has said what it holds
        // (how much is left at any one moment depends on how busy the machine is).
        #expect(await radio.waitUntil("the buffer in a connection event", timeout: 20) {
            radio.updates[mark...].contains { if case .connection(let q, _) = $0 { (q.bufferedSeconds ?? 0) > 2 } else { false } }
        })
        let events = try await radio.recordedEvents()
        #expect(events.count == 1)
        #expect(events.first?.resolution == .automaticRetry)
        await radio.shutdown()
    }

    @Test func aPausedStreamThatDropsStaysPausedAndReconnectsOnResume() async throws {
        let server = try await Self.startIcecast()
        defer { server.stop() }
        let radio = try await RadioHarness()
        try await radio.playUntilPlaying(server.streamURL)
        try await radio.player.pause()
        try await onOwnThread {
            server.kill()
            // The server stays down a while (real time, no event) before it comes back.
            Thread.sleep(forTimeInterval: 2)
            try server.restart()
        }
        // The listener's pause holds: no reconnect and no failure while paused. What does not
        // happen sends no event: real time has to pass.
        try await Task.sleep(for: .seconds(2))
        #expect(radio.states.last?.name == .paused)
        #expect(!radio.names.contains(.reconnecting) && !radio.names.contains(.failed))
        // The source reported the drop while paused: the resume connects again, from `preparing`.
        let mark = radio.states.count
        try await radio.player.resume()
        await radio.waitFor("connecting again after the resume", timeout: 30, after: mark) { $0.name == .preparing }
        await radio.waitFor("playing again", timeout: 30, after: mark) { $0.name == .playing }
        #expect(!radio.names.contains(.finished))
        await radio.shutdown()
    }

    @Test func theSourceLeavingIsStreamUnavailableAfterThePolicy() async throws {
        let server = try await Self.startIcecast()
        defer { server.stop() }
        let radio = try await RadioHarness(configuration: RadioHarness.configuration(giveUpAfter: 4))
        try await radio.playUntilPlaying(server.streamURL)
        try await onOwnThread { try server.stopSource() }
        let failed = await radio.waitFor("failed", timeout: 40) { $0.name == .failed }
        let failure = try #require(failed?.failure)
        expectExplained(failure.error, .streamUnavailable)
        #expect(failure.error.httpStatus == 404)
        #expect(failure.recoverable)
        #expect(!radio.names.contains(.finished))
        await radio.shutdown()
    }

    @Test func aStalledConnectionIsDetectedWithinEightSecondsAndReconnects() async throws {
        let server = try await Self.startIcecast()
        defer { server.stop() }
        let proxy = try FaultProxy(upstreamPort: server.port)
        defer { proxy.stop() }
        let radio = try await RadioHarness()
        try await radio.playUntilPlaying(proxy.url(IcecastServer.mount))
        proxy.mode = .stall
        let stalledAt = radio.elapsed
        let reconnecting = await radio.waitFor("reconnecting", timeout: 20) { $0.name == .reconnecting }
        guard case .reconnecting(_, _, _, _, let cause)? = reconnecting else { return }
        expectExplained(cause, .stalled)
        let detected = radio.firstTime { $0.name == .reconnecting }! - stalledAt
        // Detected at 8 s; reported within a second of it (more only when the machine is overloaded).
        #expect(detected > 7 && detected < 9.5, "stall detected after \(detected) s")
        #expect(cause.underlying?.contains("no bytes for 8.0 s") == true)
        proxy.mode = .pass
        await radio.waitFor("playing again", timeout: 20, fresh: true) { $0.name == .playing }
        await radio.shutdown()
    }

    @Test func aTrickleBelowTheBitrateShowsBufferingProgressThenReconnects() async throws {
        let server = try await Self.startIcecast()
        defer { server.stop() }
        let proxy = try FaultProxy(upstreamPort: server.port)
        defer { proxy.stop() }
        let radio = try await RadioHarness(configuration: RadioHarness.configuration(bufferingTimeout: 5))
        try await radio.playUntilPlaying(proxy.url(IcecastServer.mount))
        // The source sends 320 kbit/s (40,000 bytes a second): a twentieth of that.
        proxy.mode = .trickle(bytesPerSecond: 2_000)
        await radio.waitFor("buffering", timeout: 20, fresh: true) {
            if case .buffering(_, _, .underrun) = $0 { true } else { false }
        }
        let reconnecting = await radio.waitFor("reconnecting", timeout: 30) { $0.name == .reconnecting }
        guard case .reconnecting(_, _, _, _, let cause)? = reconnecting else { return }
        #expect(cause.code == .bufferingTimeout)
        let progress = radio.states.compactMap { state -> Float? in
            if case .buffering(_, let p, .underrun) = state { return p } else { return nil }
        }
        #expect(progress.contains { $0 > 0 }, "progress shown: \(progress)")
        proxy.mode = .pass
        await radio.waitFor("playing again", timeout: 30, fresh: true) { $0.name == .playing }
        await radio.shutdown()
    }

    @Test(arguments: [FaultProxy.Mode.cut, .closeInsideMetadataBlock])
    func aConnectionCutReconnectsAndNeverFinishes(mode: FaultProxy.Mode) async throws {
        let server = try await Self.startIcecast()
        defer { server.stop() }
        let proxy = try FaultProxy(upstreamPort: server.port)
        defer { proxy.stop() }
        let radio = try await RadioHarness()
        try await radio.playUntilPlaying(proxy.url(IcecastServer.mount))
        if mode == .closeInsideMetadataBlock { try await onOwnThread { try server.setTitle("Cut - Here") } }
        proxy.mode = mode
        let reconnecting = await radio.waitFor("reconnecting", timeout: 30) { $0.name == .reconnecting }
        guard case .reconnecting(_, _, _, _, let cause)? = reconnecting else { return }
        #expect(cause.isRetryable, "cause: \(cause.code)")
        proxy.mode = .pass
        await radio.waitFor("playing again", timeout: 30, fresh: true) { $0.name == .playing }
        #expect(!radio.names.contains(.finished))
        await radio.shutdown()
    }

    @Test func corruptBytesNeverCrashAndEndInATypedState() async throws {
        let server = try await Self.startIcecast()
        defer { server.stop() }
        let proxy = try FaultProxy(upstreamPort: server.port)
        defer { proxy.stop() }
        let radio = try await RadioHarness(configuration: RadioHarness.configuration(giveUpAfter: 5))
        try await radio.playUntilPlaying(proxy.url(IcecastServer.mount))
        proxy.mode = .corrupt(everyNthByte: 97)
        // Either the decoder skips the damaged frames and plays on, or the stream fails typed.
        // The corrupt stream plays in real time for a while; no event ends that.
        try await Task.sleep(for: .seconds(4))
        let last = try #require(radio.states.last)
        if case .failed(let error, _, _) = last {
            #expect(error.code != .unknown)
        } else {
            #expect([.playing, .buffering, .reconnecting, .preparing].contains(last.name))
        }
        await radio.shutdown()
    }

    /// Titles set through Icecast's admin interface. (Icecast cannot take a 4,000-character title
    /// there, its request line is limited to about 4 KiB: that case is served by a scripted server in
    /// `StreamFaultTests`.)
    @Test func hostileTitlesArriveReadableAndWithoutControlBytes() async throws {
        let server = try await Self.startIcecast()
        defer { server.stop() }
        let radio = try await RadioHarness()
        try await radio.playUntilPlaying(server.streamURL)
        let cases: [(bytes: [UInt8], charset: String, readable: String)] = [
            (Array("Evil\u{1B}[2J\u{1B}]0;pwned\u{07} - Song".utf8), "UTF-8", "Song"),
            (Array("Clip\u{1B}]52;c;cm0gLXJmIC8=\u{07} - Board".utf8), "UTF-8", "Board"),
            ([0x43, 0x31, 0xC2, 0x9D, 0x20, 0x2D, 0x20, 0x54, 0x69, 0x74, 0x6C, 0x65], "UTF-8", "Title"),
            (Array("Bidi \u{202E}gnos\u{202C} - Flip".utf8), "UTF-8", "Flip"),
            ([0x43, 0x61, 0x66, 0xE9, 0x20, 0x2D, 0x20, 0x4E, 0x6F, 0xEB, 0x6C], "ISO-8859-1", "Noël"),
        ]
        for (bytes, charset, readable) in cases {
            try await onOwnThread { try server.setTitle(bytes: bytes, charset: charset) }
            let arrived = await radio.waitUntil("title containing \(readable)", timeout: 20) {
                radio.metadata.contains { ($0.title ?? "").contains(readable) }
            }
            guard arrived, let shown = radio.metadata.last(where: { ($0.title ?? "").contains(readable) }) else { continue }
            for text in [shown.title, shown.artist].compactMap({ $0 }) {
                let forbidden = text.unicodeScalars.filter { scalar in
                    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
                        || (0x2066...0x2069).contains(scalar.value)
                }
                #expect(forbidden.isEmpty, "control scalars in \(text.debugDescription)")
                #expect(text.count <= StreamingLimits.maxMetadataValueLength)
            }
        }
        #expect(radio.metadata.contains { $0.artist == "Café" && $0.title == "Noël" })
        await radio.shutdown()
    }
}
