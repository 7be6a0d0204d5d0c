import Foundation
import PlayerCore
import Testing

/// Opt-in sharing's rule: nothing without consent, nothing from before it, only whole hours, each
/// hour once, never more often than the interval, and failures retried later, not lost.
@Suite("Analytics sharing rule")
struct AnalyticsSharingRuleTests {
    /// 2026-11-28 10:00:00 UTC.
    let ten = Date(timeIntervalSince1970: 1_795_860_000)
    func at(_ hours: Double) -> Date { ten.addingTimeInterval(hours * 3600) }

    @Test func withoutConsentNothingIsEverDue() {
        let rule = AnalyticsSharingRule.standard
        #expect(rule.decide(AnalyticsSharingState(), now: at(48)) == .off)
        #expect(rule.decide(AnalyticsSharingState().granted(at: at(0)).declined(), now: at(48)) == .off)
    }

    @Test func theFirstHourSentIsTheFirstWholeOneAfterTheAnswer() {
        let state = AnalyticsSharingState().granted(at: at(0.5))
        #expect(state.sentThrough == at(1))
        let rule = AnalyticsSharingRule.standard
        #expect(rule.decide(state, now: at(1.99)) == .wait(until: at(2)))
        #expect(rule.decide(state, now: at(2)) == .send(from: at(1), before: at(2)))
        #expect(rule.decide(state, now: at(4.5)) == .send(from: at(1), before: at(4)))
    }

    @Test func nothingGoesOutMoreOftenThanTheInterval() {
        let rule = AnalyticsSharingRule(interval: 6 * 3600)
        let sent = AnalyticsSharingState().granted(at: at(0)).exported(before: at(1), at: at(1), sent: true)
        #expect(rule.decide(sent, now: at(3)) == .wait(until: at(7)))
        #expect(rule.decide(sent, now: at(7.25)) == .send(from: at(1), before: at(7)))
        // Hours with no error moved the mark without sending: the interval counts from the last send.
        let quiet = sent.exported(before: at(3), at: at(3), sent: false)
        #expect(rule.decide(quiet, now: at(5)) == .wait(until: at(7)))
    }

    @Test func aFailureIsRetriedAfterABackoffAndAnEmptyBudgetWaitsAWholeInterval() {
        let rule = AnalyticsSharingRule.standard
        let granted = AnalyticsSharingState().granted(at: at(0))
        let failed = granted.failed(at: at(2), retryAllowed: true)
        #expect(failed.sentThrough == at(0), "a failure sends nothing, so no hour is marked sent")
        #expect(rule.decide(failed, now: at(2)) == .wait(until: at(2).addingTimeInterval(60)))
        let twice = failed.failed(at: at(2).addingTimeInterval(60), retryAllowed: true)
        #expect(rule.decide(twice, now: at(2.02)) == .wait(until: at(2).addingTimeInterval(180)))
        let refused = failed.failed(at: at(2).addingTimeInterval(60), retryAllowed: false)
        #expect(rule.decide(refused, now: at(2.5)) == .wait(until: at(2).addingTimeInterval(3660)))
        // However many failures, a retry never waits longer than the interval.
        var many = granted
        for minute in 0..<20 { many = many.failed(at: at(2).addingTimeInterval(Double(minute)), retryAllowed: true) }
        #expect(rule.decide(many, now: at(2)) == .wait(until: at(2).addingTimeInterval(19 + 3600)))
        let recovered = many.exported(before: at(3), at: at(3.1), sent: true)
        #expect(recovered.failures == 0 && !recovered.retryRefused)
    }

    @Test func onlyWholeHoursAfterTheStartAreCounted() {
        let events = [
            event(at: at(0.9)), event(at: at(1)), event(at: at(1.5)), event(at: at(1.5), .corruptData),
            event(at: at(2.99)), event(at: at(3.01)),
        ]
        let counts = HourlyErrorCount.counts(of: events, from: at(0.5), before: at(3.5))
        #expect(
            counts == [
                HourlyErrorCount(hour: at(1), errorType: "Network.connectionFailed", count: 2),
                HourlyErrorCount(hour: at(1), errorType: PlaybackError(.corruptData).errorType, count: 1),
                HourlyErrorCount(hour: at(2), errorType: "Network.connectionFailed", count: 1),
            ].sorted())
        let corrupt = PlaybackError(.corruptData)
        #expect(counts.first { $0.errorType == corrupt.errorType }?.category == corrupt.category.rawValue.lowercased())
    }

    /// Any run of answers, failures and sends over a fortnight: every hour sent lies after the
    /// answer, no hour is sent twice, and two sends are at least an interval apart.
    @Test(arguments: 0..<40) func aRandomFortnightKeepsEveryPromise(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let interval = Double(Int.random(in: 1...6, using: &random)) * 3600
        let rule = AnalyticsSharingRule(interval: interval)
        var state = AnalyticsSharingState()
        var now = at(0)
        var consentSince: Date?
        var sentHours: Set<Date> = []
        var lastSend: Date?
        while now < at(14 * 24) {
            now = now.addingTimeInterval(Double.random(in: 30...5400, using: &random))
            switch Int.random(in: 0..<40, using: &random) {
            case 0:
                if state.consent != .granted { consentSince = now }
                state = state.granted(at: now)
            case 1:
                state = state.declined()
                consentSince = nil
            default: break
            }
            guard case .send(let start, let end) = rule.decide(state, now: now) else { continue }
            let since = try! #require(consentSince)
            #expect(start >= since && end <= now && start < end)
            if Bool.random(using: &random) {
                state = state.failed(at: now, retryAllowed: Bool.random(using: &random))
                continue
            }
            if let lastSend { #expect(now.timeIntervalSince(lastSend) >= interval) }
            lastSend = now
            var hour = start
            while hour < end {
                #expect(!sentHours.contains(hour), "hour \(hour) sent twice")
                sentHours.insert(hour)
                hour = hour.addingTimeInterval(3600)
            }
            state = state.exported(before: end, at: now, sent: true)
        }
    }

    private func event(at date: Date, _ code: PlaybackError.Code = .connectionFailed) -> ErrorEvent {
        ErrorEvent(PlaybackError(code), operation: "playStation", timestamp: date)
    }
}
