import AudioEngine
import Foundation
import LibraryKit
import PlayerCore
import PlayerKit

/// The resilience defaults as a table, every figure read from the constant or preset the code
/// uses, so `tonearm resilience --markdown` and docs/RESILIENCE.md cannot drift from it.
enum ResilienceTable {
    struct Row: Equatable {
        let what: String
        let value: String
        let appliesTo: String
    }

    static var rows: [Row] {
        let player = PlayerStateMachine.Configuration()
        let reconnect = player.reconnectPolicy
        let buffering = NetworkBuffering()
        let listener = NetworkBuffering.listenerRange
        return [
            Row(
                what: "reconnect backoff",
                value: "\(waits(reconnect)); at most \(reconnect.maxAttempts) attempts (what fits in "
                    + "\(duration(player.reconnectGiveUpAfter))), given up after \(duration(player.reconnectGiveUpAfter)) "
                    + "(`--give-up-after`) into `failed(recoverable: true)`",
                appliesTo: "the player's state machine: reconnects of streams and episodes, and reopening a lost sound server"),
            Row(
                what: "reconnect budget",
                value: "\(number(player.reconnectBudgetCapacity)) tokens, refilled at \(number(player.reconnectBudgetRefillPerSecond)) a second; "
                    + "each scheduled reconnect takes one, and a spent budget fails with the error that caused the reconnect",
                appliesTo: "stream and episode reconnects of one player (a `TokenBucket` in the state machine); reopening the sound server spends none"),
            Row(
                what: "reconnect in the background",
                value: "\(waits(.backgroundReconnect)), at most \(BackoffPolicy.backgroundReconnect.maxAttempts) attempts, "
                    + "while the buffer plays; then the reconnect backoff",
                appliesTo: "a dropped live stream, decided by the state machine"),
            Row(
                what: "episode drop",
                value: "one immediate request for the rest of the file (HTTP `Range`), then the reconnect backoff",
                appliesTo: "episodes"),
            Row(
                what: "stream buffering",
                value: "start after \(duration(buffering.startSeconds)) of audio (`--buffer S`, \(number(listener.lowerBound))-"
                    + "\(number(listener.upperBound)): after S s), refill to \(duration(buffering.refillSeconds)) (or S) after an underrun, "
                    + "silent meanwhile; reconnect after \(duration(ResilienceDefaults.bufferingTimeout)) of buffering",
                appliesTo: "network tracks"),
            Row(
                what: "stall",
                value: "a source dry (reader waiting, no bytes) for \(duration(ResilienceDefaults.stallTimeout)) has its connection given up; "
                    + "\"still connecting\" shown after \(duration(ResilienceDefaults.stillConnectingAfter)); TCP connect timeout "
                    + "\(duration(ResilienceDefaults.connectTimeout))",
                appliesTo: "network tracks, decided by the state machine"),
            Row(
                what: "frozen live playlist",
                value: "\(ResilienceDefaults.unchangedPlaylistLoads) reloads in a row without a new segment are a stall "
                    + "(reconnected in the background while the buffer plays)",
                appliesTo: "HLS live streams, decided by the state machine"),
            Row(
                what: "render waiting on the network",
                value: "shown as `buffering` after \(duration(ResilienceDefaults.renderWaitShownAfter))",
                appliesTo: "`--fast` and `render`"),
            Row(
                what: "connection quality",
                value: "`good`; `fair` from 1 incident (reconnect or stall) within \(duration(ConnectionIncidents.window)), "
                    + "a reconnect under way, or under \(duration(ConnectionQuality.lowBufferSeconds)) buffered; "
                    + "`poor` from \(ConnectionQuality.poorIncidents) incidents",
                appliesTo: "live streams: Now Playing, the `connection` event, MPRIS"),
            Row(
                what: "request retries",
                value: "the `network` preset: \(backoff(.network))",
                appliesTo: "whole-document requests through `NetworkClient`: podcast feeds (`podcast add`, `refresh`, `import`), "
                    + "status APIs, episode downloads"),
            Row(
                what: "artwork retries",
                value: "the `artwork` preset: \(backoff(.artwork))",
                appliesTo: "artwork and an episode's JSON chapters"),
            Row(
                what: "station directory",
                value: "the `quick` preset: \(backoff(.quick)); when several servers are known, one try each and then the next server",
                appliesTo: "the radio-browser directory: its list of servers, and searches on a single server"),
            Row(
                what: "playlist fetch",
                value: "the `once` preset: \(backoff(.once)); the reconnect backoff retries",
                appliesTo: "the .pls/.m3u of a stream as it opens, an HLS stream's playlist and segment requests"),
            Row(
                what: "Retry-After",
                value: "honoured in seconds and HTTP-date form (at most \(duration(RetryAfter.maximumDelay))), lengthening the wait "
                    + "without spending an extra attempt",
                appliesTo: "reconnects and whole-document requests"),
            Row(
                what: "request retry budget",
                value: "\(number(RetryBudget.defaultCapacity)) tokens, refilled at \(number(RetryBudget.defaultRefillPerSecond)) a second; "
                    + "each retry (never a first try) takes one, and a spent budget ends the request with its last error",
                appliesTo: "every `NetworkClient` request of one command run (a `RetryBudget`): a playback's status API, artwork and "
                    + "playlist requests, a library command's feeds, the library screens' whole run"),
            Row(
                what: "circuit breaker",
                value: "per host (and port): opens after \(ResilienceDefaults.breakerFailureThreshold) consecutive failures, one half-open "
                    + "probe after \(duration(ResilienceDefaults.breakerOpenDuration)), a probe unanswered after "
                    + "\(duration(ResilienceDefaults.breakerProbeTimeout)) counts as failed; while open, calls fail at once with "
                    + "`circuitOpen` (\"Server Not Responding\")",
                appliesTo: "one registry for the process (`HostCircuitBreakers`), asked by every `NetworkClient` request and by every "
                    + "connection of a stream or episode, reconnects included (not by what happens later in a long body)"),
            Row(
                what: "batch requests",
                value: "at most \(ResilienceDefaults.batchRequestsPerHost) in flight to one host, \(ResilienceDefaults.batchRequestsInFlight) in all",
                appliesTo: "the feeds of an OPML import and of a refresh of every podcast"),
            Row(
                what: "learned retries",
                value: "an item whose last \(LearnedRetryRule.standard.failedRuns) runs failed, over at least "
                    + "\(number(LearnedRetryRule.standard.days)) days, is usually unreachable: tried once with no backoff, left out of "
                    + "automatic work except one try every \(number(LearnedRetryRule.standard.probeHours)) h; its first success resets it "
                    + "(`[retries]` in config.toml)",
                appliesTo: "each podcast's feed (a refresh of all skips it; refreshing it alone tries once) and automatic downloads"),
            Row(
                what: "episode downloads",
                value: "at most \(EpisodeDownloads.maxConcurrent) at once, each with the `network` preset",
                appliesTo: "`podcast download`, automatic downloads, `d` on the Episodes list"),
        ]
    }

    static func markdown() -> String {
        var lines = ["| what | default | applies to |", "|---|---|---|"]
        lines += rows.map { "| \($0.what) | \($0.value) | \($0.appliesTo) |" }
        return lines.joined(separator: "\n") + "\n"
    }

    static func plainText() -> String {
        rows.map { "\($0.what): \($0.value)\n    applies to: \($0.appliesTo)\n" }.joined()
    }

    /// A preset in words: "3 attempts from 1 s, ×2, ±15 %, cap 60 s", "a first try, then retries
    /// after 2 s, 4 s and 6 s", "one try".
    static func backoff(_ policy: BackoffPolicy) -> String {
        if policy.maxAttempts == 1 { return "one try" }
        switch policy.strategy {
        case .constant, .linear:
            let waits = (1..<policy.maxAttempts).map { duration(policy.nominalDelay(forRetry: $0)) }
            return "a first try, then retries after \(list(waits))"
        default:
            return "\(policy.maxAttempts) attempts \(waits(policy))"
        }
    }

    /// How an exponential policy's waits grow: "from 1 s, ×1.6, ±20 %, cap 30 s".
    static func waits(_ policy: BackoffPolicy) -> String {
        let growth = "from \(duration(policy.base)), ×\(number(policy.multiplier))"
        let cap = "cap \(duration(policy.cap))"
        switch policy.strategy {
        case .proportionalJitter(let fraction): return "\(growth), ±\(number(fraction * 100)) %, \(cap)"
        case .fullJitter: return "\(growth), full jitter, \(cap)"
        case .equalJitter: return "\(growth), equal jitter, \(cap)"
        case .decorrelatedJitter: return "\(growth), decorrelated jitter, \(cap)"
        case .constant: return "every \(duration(policy.base))"
        case .linear: return "\(duration(policy.base)), then \(duration(policy.base)) longer each time, \(cap)"
        }
    }

    /// Seconds as the docs write them: "0.25 s", "30 s", "2 minutes", "1 hour".
    static func duration(_ seconds: Double) -> String {
        if seconds >= 3600, seconds.truncatingRemainder(dividingBy: 3600) == 0 {
            let hours = Int(seconds / 3600)
            return hours == 1 ? "1 hour" : "\(hours) hours"
        }
        if seconds >= 120, seconds.truncatingRemainder(dividingBy: 60) == 0 { return "\(Int(seconds / 60)) minutes" }
        return "\(number(seconds)) s"
    }

    /// At most two decimals, no trailing zeros: 1, 0.25, 1.6.
    static func number(_ value: Double) -> String {
        let hundredths = (value * 100).rounded()
        if hundredths.truncatingRemainder(dividingBy: 100) == 0 { return String(Int(hundredths / 100)) }
        if hundredths.truncatingRemainder(dividingBy: 10) == 0 { return String(format: "%.1f", value) }
        return String(format: "%.2f", value)
    }

    private static func list(_ items: [String]) -> String {
        guard let last = items.last else { return "" }
        return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " and " + last
    }
}
