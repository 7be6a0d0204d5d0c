import Foundation
import PlayerCore
import Telemetry
import Testing

/// Which counter and gauge each player update moves, and that no label ever holds what the
/// listener plays.
@Suite("Player metrics: reading the updates")
struct PlayerMetricsReadingTests {
    static let secret = URL(string: "http://user:pass@radio.secret.example:8000/stream.mp3?token=abc123")!
    static let station = Track(id: "station", url: secret, kind: .liveStream, title: "Secret Station", album: "Secret Album")
    static let song = Track(id: "song", url: URL(fileURLWithPath: "/home/alice/Music/private.flac"), kind: .file, title: "Private")
    static let lost = PlaybackError(.connectionLost, underlying: "read from \(secret)")

    static func state(_ state: PlayerState) -> PlayerUpdate { .state(state, audioTime: 0, now: PlayerTime(seconds: 0)) }

    static func counted(_ changes: [PlayerMetricsReading.Change]) -> [String] {
        changes.compactMap { change in
            guard case .count(let metric, let labels) = change else { return nil }
            return ([metric.rawValue] + labels.map { "\($0.name)=\($0.value)" }).joined(separator: " ")
        }
    }

    @Test func playsStallsReconnectsAndFailuresAreCountedOncePerEvent() {
        var reading = PlayerMetricsReading()
        var all: [PlayerMetricsReading.Change] = []
        func feed(_ update: PlayerUpdate) -> [String] {
            let changes = reading.observe(update)
            all += changes
            return Self.counted(changes)
        }
        #expect(feed(Self.state(.preparing(track: Self.station))).isEmpty)
        #expect(feed(Self.state(.playing(track: Self.station))) == ["tonearm_plays_total"])
        #expect(feed(Self.state(.buffering(track: Self.station, progress: 0, reason: .underrun))) == ["tonearm_stalls_total"])
        #expect(feed(Self.state(.buffering(track: Self.station, progress: 0.5, reason: .underrun))).isEmpty, "the same stall")
        #expect(feed(Self.state(.playing(track: Self.station))).isEmpty, "the same item sounding again is no new play")
        let attempt = { (n: Int) in
            Self.state(.reconnecting(track: Self.station, attempt: n, maxAttempts: 5, nextRetryAt: PlayerTime(seconds: Double(n)), cause: Self.lost))
        }
        #expect(feed(attempt(1)) == ["tonearm_reconnects_total", "tonearm_errors_total code=connectionLost category=network"])
        #expect(feed(attempt(1)).isEmpty, "a countdown update of the same attempt")
        #expect(feed(attempt(2)) == ["tonearm_errors_total code=connectionLost category=network"], "each failed attempt is an error")
        #expect(feed(Self.state(.playing(track: Self.station))).isEmpty)
        #expect(feed(.notice(.recovered(Self.lost, by: .automaticRetry), audioTime: 0))
            == ["tonearm_recoveries_total code=connectionLost category=network by=automaticRetry"])
        #expect(feed(attempt(1)) == ["tonearm_reconnects_total", "tonearm_errors_total code=connectionLost category=network"], "a second drop")
        #expect(feed(.notice(.routeChanged(.deviceRemoved(name: "Alice's headphones")), audioTime: 0)) == ["tonearm_output_losses_total"])
        let failed = PlaybackError(.fileNotFound, underlying: "/home/alice/Music/private.flac")
        #expect(feed(Self.state(.failed(error: failed, recoverable: false, resumePoint: nil))) == ["tonearm_errors_total code=fileNotFound category=resource"])
        #expect(feed(Self.state(.failed(error: failed, recoverable: false, resumePoint: nil))).isEmpty)
        #expect(feed(Self.state(.idle)).isEmpty)
        #expect(feed(Self.state(.playing(track: Self.station))) == ["tonearm_plays_total"], "after idle, the same station plays anew")
        #expect(feed(Self.state(.crossfading(fromTrack: Self.station, toTrack: Self.song, progress: 0.1, canQuickFinish: true))) == ["tonearm_plays_total"])
        #expect(feed(Self.state(.playing(track: Self.song))).isEmpty, "the crossfade's incoming item was counted already")

        // Nothing the listener plays, and no address, is in any label.
        let labels = all.flatMap { change -> [MetricLabel] in
            switch change {
            case .count(_, let labels), .add(_, let labels, _), .set(_, let labels, _): labels
            }
        }
        for label in labels {
            for secret in ["secret", "Secret", "alice", "Alice", "token", "abc123", "pass", "8000", "/", ".flac", ":"] {
                #expect(!label.value.contains(secret), "\(label.name)=\(label.value) holds \(secret)")
            }
        }
    }

    @Test func theStateGaugeIsOneForTheCurrentStateOnly() {
        var reading = PlayerMetricsReading()
        let changes = reading.observe(Self.state(.paused(track: Self.song, position: 3)))
        let gauge = changes.compactMap { change -> (String, Double)? in
            guard case .set(.state, let labels, let value) = change else { return nil }
            return (labels.first { $0.name == "state" }?.value ?? "?", value)
        }
        #expect(gauge.count == PlayerState.Name.allCases.count)
        #expect(gauge.filter { $0.1 == 1 }.map(\.0) == ["paused"])
        #expect(reading.observe(Self.state(.paused(track: Self.song, position: 4))).isEmpty, "unchanged: nothing to set")
    }

    @Test func aStreamsBufferIsAGauge() {
        var reading = PlayerMetricsReading()
        var quality = ConnectionQuality()
        quality.bufferedSeconds = 4.5
        #expect(reading.observe(.connection(quality, audioTime: 0)) == [.set(.bufferedSeconds, to: 4.5)])
        quality.bufferedSeconds = nil
        #expect(reading.observe(.connection(quality, audioTime: 0)).isEmpty)
    }

    /// A drop that the buffer covers is reconnected in the background while the state stays
    /// `playing`: it counts as a reconnect, once, when it begins.
    @Test func aReconnectInTheBackgroundCountsOnce() {
        var reading = PlayerMetricsReading()
        _ = reading.observe(Self.state(.playing(track: Self.station)))
        let reconnecting = ConnectionQuality(reconnecting: true)
        #expect(Self.counted(reading.observe(.connection(reconnecting, audioTime: 1))) == ["tonearm_reconnects_total"])
        #expect(Self.counted(reading.observe(.connection(reconnecting, audioTime: 2))).isEmpty, "the same reconnect")
        #expect(Self.counted(reading.observe(.connection(ConnectionQuality(), audioTime: 3))).isEmpty)
        #expect(Self.counted(reading.observe(.connection(reconnecting, audioTime: 4))) == ["tonearm_reconnects_total"], "the next drop")
    }
}

/// The alerting rules shipped for operators name only metrics Tonearm serves.
@Suite("Player metrics: the alerting rules' names")
struct AlertRuleNamesTests {
    @Test func everyMetricTheRulesNameIsServed() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let rules = try String(contentsOf: root.appendingPathComponent("contrib/prometheus/tonearm.rules.yml"), encoding: .utf8)
        let named = Set(rules.matches(of: /tonearm_[a-z_]+/).map { String($0.output) })
        #expect(named.count >= 4, "\(named)")
        let served = Set(PlayerMetric.allCases.map(\.rawValue))
        #expect(named.subtracting(served).isEmpty, "named but not served: \(named.subtracting(served))")
    }
}
