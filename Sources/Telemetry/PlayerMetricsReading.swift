import PlayerCore

/// What the player's updates mean for its metrics: which counter goes up and which gauge moves.
/// Pure, so every rule is tested without a metrics backend; `PlayerMetrics` applies the changes.
///
/// Every label is low-cardinality and holds nothing about the listener: a state's name, an error's
/// code and category, how it was overcome. Never an address, a host, a title or a path.
package struct PlayerMetricsReading: Sendable {
    /// One change to apply.
    package enum Change: Sendable, Hashable {
        case count(PlayerMetric, labels: [MetricLabel] = [])
        /// A counter moved on by more than one (a sampled total's gain); by 0 only makes the series.
        case add(PlayerMetric, labels: [MetricLabel] = [], by: Int64)
        case set(PlayerMetric, labels: [MetricLabel] = [], to: Double)

        /// One series: a metric with one set of label values.
        package struct Series: Sendable, Hashable {
            package let metric: PlayerMetric
            package let labels: [MetricLabel]
        }
    }

    private var state: PlayerState.Name?
    private var playingTrack: String?
    private var reconnectAttempt: Int?
    private var reconnectingInBackground = false

    package init() {}

    /// The changes `update` makes; most updates make none.
    package mutating func observe(_ update: PlayerUpdate) -> [Change] {
        switch update {
        case .state(let new, _, _): return stateChanged(to: new)
        case .notice(.routeChanged, _): return [.count(.outputLosses)]
        case .notice(.nonFatal(let error), _), .notice(.serviceProblem(let error), _): return [Self.error(error)]
        case .notice(.recovered(let error, let by), _): return [.count(.recoveries, labels: Self.labels(error) + [MetricLabel("by", by.rawValue)])]
        case .connection(let quality, _): return connectionChanged(quality)
        default: return []
        }
    }

    /// The state gauge (one for the current state's name, zero for the others) and the counters a
    /// state begins: a play (a new item sounding), a reconnect (a drop, and each attempt's
    /// error), a stall (sound waiting for data), a failure.
    private mutating func stateChanged(to new: PlayerState) -> [Change] {
        let before = state
        state = new.name
        var changes: [Change] = []
        if before != new.name {
            changes += PlayerState.Name.allCases.map { .set(.state, labels: [MetricLabel("state", $0.rawValue)], to: $0 == new.name ? 1 : 0) }
        }
        switch new {
        case .playing(let track), .crossfading(_, let track, _, _):
            if playingTrack != track.id {
                playingTrack = track.id
                changes.append(.count(.plays))
            }
        case .buffering(_, _, .underrun) where before != .buffering:
            changes.append(.count(.stalls))
        case .reconnecting(_, let attempt, _, _, let cause):
            if before != .reconnecting { changes.append(.count(.reconnects)) }
            if reconnectAttempt != attempt { changes.append(Self.error(cause)) }
            reconnectAttempt = attempt
        case .failed(let error, _, _) where before != .failed:
            changes.append(Self.error(error))
        case .idle, .finished:
            playingTrack = nil
        default:
            break
        }
        if new.name != .reconnecting { reconnectAttempt = nil }
        return changes
    }

    /// The buffer's gauge, and a drop its buffer covers: the stream is asked for again while the
    /// state stays `playing`, which is a reconnect all the same.
    private mutating func connectionChanged(_ quality: ConnectionQuality) -> [Change] {
        var changes: [Change] = quality.bufferedSeconds.map { [.set(.bufferedSeconds, to: max(0, $0))] } ?? []
        if quality.reconnecting, !reconnectingInBackground, state != .reconnecting { changes.append(.count(.reconnects)) }
        reconnectingInBackground = quality.reconnecting
        return changes
    }

    private static func error(_ error: PlaybackError) -> Change { .count(.errors, labels: labels(error)) }

    private static func labels(_ error: PlaybackError) -> [MetricLabel] {
        [MetricLabel("code", error.code.typeName), MetricLabel("category", error.category.rawValue.lowercased())]
    }
}

/// A label of a metric: a name and a value from a small, fixed set.
package struct MetricLabel: Sendable, Hashable {
    package let name: String
    package let value: String

    package init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// The player's metrics, as Prometheus names them.
package enum PlayerMetric: String, Sendable, Hashable, CaseIterable {
    case state = "tonearm_player_state"
    case plays = "tonearm_plays_total"
    case reconnects = "tonearm_reconnects_total"
    case stalls = "tonearm_stalls_total"
    case outputLosses = "tonearm_output_losses_total"
    case errors = "tonearm_errors_total"
    case recoveries = "tonearm_recoveries_total"
    case bufferedSeconds = "tonearm_buffered_seconds"
    case circuitBreakers = "tonearm_circuit_breakers"
    case circuitBreakerTrips = "tonearm_circuit_breaker_trips_total"
    case retryBudgetTokens = "tonearm_retry_budget_tokens"
    case retriesSpent = "tonearm_retry_budget_spent_total"
    case retriesRefused = "tonearm_retry_budget_refused_total"
    case receivedBytes = "tonearm_received_bytes_total"
    case downloads = "tonearm_downloads_total"

    /// The help line a scrape shows.
    package var help: String {
        switch self {
        case .state: "1 for the player's current state, 0 for the others."
        case .plays: "Items that began to sound."
        case .reconnects: "Times a stream dropped and the player began to reconnect (also when its buffer covered the gap)."
        case .stalls: "Times sound stopped to wait for data (an underrun)."
        case .outputLosses: "Times the sound output went away."
        case .errors: "Errors by code and category (each failed attempt counts)."
        case .recoveries: "Errors overcome, by code, category and how (automaticRetry, manualRetry)."
        case .bufferedSeconds: "Seconds of a stream's audio buffered ahead."
        case .circuitBreakers: "Hosts whose circuit breaker is open or half-open, by host class (loopback, local, internet)."
        case .circuitBreakerTrips: "Times a host's circuit breaker opened, by host class."
        case .retryBudgetTokens: "Retries the player's services may still spend now."
        case .retriesSpent: "Retries the retry budget allowed."
        case .retriesRefused: "Retries the retry budget refused (an operation gave up early)."
        case .receivedBytes: "Bytes received, by kind (stream, download, request)."
        case .downloads: "Episode downloads ended, by outcome (completed, failed)."
        }
    }

    /// A counter (only goes up) rather than a gauge.
    package var isCounter: Bool { ![.state, .bufferedSeconds, .circuitBreakers, .retryBudgetTokens].contains(self) }

    /// Counted by `PlayerMetricsReading` without labels, so made at 0 from the start.
    package var isPlainPlayerCounter: Bool { [.plays, .reconnects, .stalls, .outputLosses].contains(self) }
}
