import Foundation
import Library
import Logging
import PlayerCore

/// Opt-in sharing's shell: reads the state and the events from the library, asks the pure
/// `AnalyticsSharingRule` what to do, performs it (one export) and writes the new state back.
/// Long-running front ends (`tonearm serve`, the terminal player) call `run()`; tests call
/// `step()` with their own `now`.
///
/// Quiet by design: a down endpoint is logged at `info` and retried later under the retry budget
/// the player's network already shares; the listener is never interrupted by it.
package actor AnalyticsSharingService {
    package enum Step: Sendable, Equatable {
        /// No consent, or no endpoint configured.
        case off
        case waiting(until: Date)
        /// Whole hours passed with no error: nothing was sent.
        case nothingToSend(before: Date)
        /// The endpoint accepted this many counts.
        case sent(counts: Int, before: Date)
        case failed(retryAllowed: Bool)
    }

    private let store: LibraryStore
    private let exporter: OTLPErrorCountExporter?
    private let rule: AnalyticsSharingRule
    private let budget: RetryBudget
    private let now: @Sendable () -> Date
    private let logger: Logger

    /// `exporter` nil means no endpoint is configured: nothing can be sent, whatever the consent.
    package init(
        store: LibraryStore, exporter: OTLPErrorCountExporter?, rule: AnalyticsSharingRule = .standard, budget: RetryBudget,
        now: @escaping @Sendable () -> Date = { Date() }, logger: Logger
    ) {
        self.store = store
        self.exporter = exporter
        self.rule = rule
        self.budget = budget
        self.now = now
        self.logger = logger
    }

    /// One decision and what it asks for.
    package func step() async -> Step {
        guard let exporter else { return .off }
        let state: AnalyticsSharingState
        do {
            state = try store.analyticsSharing()
        } catch {
            logger.info("analytics sharing: state unreadable", metadata: ["code": "\(error.code.typeName)"])
            return .off
        }
        let moment = now()
        switch rule.decide(state, now: moment) {
        case .off:
            return .off
        case .wait(let until):
            return .waiting(until: until)
        case .send(let start, let end):
            return await send(from: start, before: end, state: state, at: moment, with: exporter)
        }
    }

    private func send(
        from start: Date, before end: Date, state: AnalyticsSharingState, at moment: Date, with exporter: OTLPErrorCountExporter
    ) async -> Step {
        let counts: [HourlyErrorCount]
        let salt: [UInt8]
        do {
            counts = HourlyErrorCount.counts(of: try await store.errorEvents.events(since: start), from: start, before: end)
            salt = try store.analyticsSalt()
        } catch {
            logger.info("analytics sharing: events unreadable", metadata: ["code": "\((error as? PlaybackError)?.code.typeName ?? "unknown")"])
            return .off
        }
        guard !counts.isEmpty else {
            save(state.exported(before: end, at: moment, sent: false))
            return .nothingToSend(before: end)
        }
        switch await exporter.export(counts, pseudonym: AnalyticsPseudonym.identifier(salt: salt, at: moment)) {
        case .sent:
            save(state.exported(before: end, at: moment, sent: true))
            logger.info("analytics sharing: counts sent", metadata: ["counts": "\(counts.count)", "hours": "\(Int(end.timeIntervalSince(start) / 3600))"])
            return .sent(counts: counts.count, before: end)
        case .failed(let reason):
            // The first try is free; each retry takes a token, as every other retry in the player does.
            let retryAllowed = budget.tryAcquire()
            save(state.failed(at: moment, retryAllowed: retryAllowed))
            logger.info(
                "analytics sharing: export failed", metadata: ["failures": "\(state.failures + 1)", "retryAllowed": "\(retryAllowed)", "reason": "\(reason)"])
            return .failed(retryAllowed: retryAllowed)
        }
    }

    private func save(_ state: AnalyticsSharingState) {
        do {
            try store.setAnalyticsSharing(state)
        } catch {
            logger.info("analytics sharing: state not saved", metadata: ["code": "\(error.code.typeName)"])
        }
    }

    /// Steps for as long as the task runs, sleeping on `clock` between them. With no consent it
    /// looks again every interval, so a `tonearm analytics share on` in another process is heard.
    package func run(clock: any Clock<Duration>) async {
        while !Task.isCancelled {
            let wait: Double
            switch await step() {
            case .off: wait = rule.interval
            case .waiting(let until): wait = max(1, until.timeIntervalSince(now()))
            case .nothingToSend, .sent, .failed: wait = 0
            }
            guard wait > 0 else { continue }
            do { try await Self.sleep(clock, seconds: min(wait, rule.interval)) } catch { return }
        }
    }

    private static func sleep<C: Clock>(_ clock: C, seconds: Double) async throws where C.Duration == Duration {
        try await clock.sleep(for: .seconds(seconds))
    }
}
