import Foundation
import Testing

@testable import PlayerCore

/// The learned-retry rule over many generated histories: what it may never do (skip what the
/// listener asks for, judge an item by fewer failures or a shorter span than configured, hold on
/// after a success, skip past the daily try) and what it must do once the thresholds are met.
@Suite("Learned retries: the rule")
struct LearnedRetryRuleTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// A history: runs at increasing times (minutes to days apart), each failing or succeeding.
    struct History {
        var runs: [(date: Date, ending: RunEnding)] = []

        init(using random: inout SeededRandom) {
            var date = LearnedRetryRuleTests.start
            let failureShare = Double.random(in: 0.2...1, using: &random)
            for _ in 0..<Int.random(in: 0...30, using: &random) {
                date += [60, 3_600, 6 * 3_600, 86_400, 2.5 * 86_400].randomElement(using: &random)!
                let ending: RunEnding =
                    Double.random(in: 0..<1, using: &random) < failureShare
                    ? .failed([.connectionTimeout, .httpRetryable, .httpNotFound, .dnsFailure].randomElement(using: &random)!)
                    : .succeeded(tries: Int.random(in: 1...3, using: &random))
                runs.append((date, ending))
            }
        }

        var record: ReachabilityRecord { runs.reduce(ReachabilityRecord()) { $0.recording($1.ending, at: $1.date) } }
        var last: Date { runs.last?.date ?? LearnedRetryRuleTests.start }

        /// The failures after the last success, as the record should count them.
        var trailingFailures: [Date] {
            Array(runs.reversed().prefix { if case .failed = $0.ending { true } else { false } }.map(\.date).reversed())
        }
    }

    static func randomRule(using random: inout SeededRandom) -> LearnedRetryRule {
        LearnedRetryRule(
            failedRuns: Int.random(in: 1...8, using: &random), days: [0, 0.5, 1, 3, 7].randomElement(using: &random)!,
            probeHours: [0, 1, 24, 72].randomElement(using: &random)!)
    }

    @Test func theRecordCountsTheFailuresSinceTheLastSuccessAndWhenTheyBegan() {
        var random = SeededRandom(seed: 2_026)
        for _ in 0..<2_000 {
            let history = History(using: &random)
            let record = history.record
            let trailing = history.trailingFailures
            #expect(record.consecutiveFailures == trailing.count)
            #expect(record.failingSince == trailing.first)
            #expect(record.lastAttempt == history.runs.last?.date)
            #expect(record.failedRuns == history.runs.filter { if case .failed = $0.ending { true } else { false } }.count)
        }
    }

    @Test func itJudgesAnItemOnlyAfterEnoughFailuresOverEnoughDays() {
        var random = SeededRandom(seed: 7)
        for _ in 0..<5_000 {
            let history = History(using: &random)
            let rule = Self.randomRule(using: &random)
            let now = history.last + Double.random(in: 0...(4 * 86_400), using: &random)
            let record = history.record
            let automatic = Bool.random(using: &random)
            let decision = rule.decide(record, now: now, automatic: automatic)
            let trailing = history.trailingFailures
            let judged = trailing.count >= rule.failedRuns && trailing.first.map { now.timeIntervalSince($0) >= rule.days * 86_400 } == true
            #expect((decision != .retryAsUsual) == judged, "\(trailing.count) failures, rule \(rule), decision \(decision)")
            if judged { #expect(decision.unreachableSince == trailing.first) }
            // The listener's own request is never skipped.
            if !automatic { #expect({ if case .skip = decision { false } else { true } }()) }
            // A skip lasts until the daily try, never past it.
            if case .skip(_, let nextTry) = decision {
                #expect(nextTry > now && nextTry == record.lastAttempt!.addingTimeInterval(rule.probeHours * 3_600))
                #expect(rule.decide(record, now: nextTry, automatic: true) == .tryOnce(unreachableSince: trailing.first!))
            }
        }
    }

    @Test func oneSuccessResetsItAtOnce() {
        var random = SeededRandom(seed: 11)
        for _ in 0..<2_000 {
            let history = History(using: &random)
            let rule = Self.randomRule(using: &random)
            let after = history.record.recording(.succeeded(tries: Int.random(in: 1...3, using: &random)), at: history.last + 60)
            for days in [0.0, 1, 30] {
                #expect(rule.decide(after, now: history.last + 60 + days * 86_400, automatic: true) == .retryAsUsual)
            }
        }
    }

    @Test func stricterThresholdsNeverJudgeMore() {
        var random = SeededRandom(seed: 99)
        for _ in 0..<3_000 {
            let history = History(using: &random)
            let rule = Self.randomRule(using: &random)
            let stricter = LearnedRetryRule(
                failedRuns: rule.failedRuns + Int.random(in: 0...3, using: &random), days: rule.days + Double.random(in: 0...3, using: &random),
                probeHours: rule.probeHours)
            let now = history.last + 3_600
            if rule.decide(history.record, now: now, automatic: false) == .retryAsUsual {
                #expect(stricter.decide(history.record, now: now, automatic: false) == .retryAsUsual)
            }
        }
    }

    @Test func theStandardRuleOnADeadFeedRefreshedHourly() {
        // Five failed hourly refreshes are not yet three days; the same five spread over four days are.
        var record = ReachabilityRecord()
        for hour in 0..<5 { record = record.recording(.failed(.connectionTimeout), at: Self.start + Double(hour) * 3_600) }
        #expect(LearnedRetryRule.standard.decide(record, now: Self.start + 5 * 3_600, automatic: true) == .retryAsUsual)
        #expect(LearnedRetryRule.standard.decide(record, now: Self.start + 3 * 86_400, automatic: true) == .tryOnce(unreachableSince: Self.start))
        record = record.recording(.failed(.connectionTimeout), at: Self.start + 3 * 86_400)
        #expect(
            LearnedRetryRule.standard.decide(record, now: Self.start + 3 * 86_400 + 60, automatic: true)
                == .skip(unreachableSince: Self.start, nextTry: Self.start + 4 * 86_400))
        #expect(LearnedRetryRule.standard.decide(record, now: Self.start + 3 * 86_400 + 60, automatic: false) == .tryOnce(unreachableSince: Self.start))
    }

    @Test func errorsThatSayNothingAboutTheItemAreNotRuns() {
        #expect(RunEnding(failure: PlaybackError(.offline)) == nil)
        #expect(RunEnding(failure: PlaybackError(.cancelled)) == nil)
        #expect(RunEnding(failure: PlaybackError.circuitOpen(host: "a.example", retryIn: 3)) == nil)
        #expect(RunEnding(failure: PlaybackError(.diskFull)) == nil)
        #expect(RunEnding(failure: PlaybackError(.libraryUnavailable)) == nil, "the library's own database says nothing about a feed")
        #expect(RunEnding(failure: PlaybackError(.unknown)) == nil)
        #expect(RunEnding(failure: PlaybackError(.httpNotFound)) == .failed(.httpNotFound))
        #expect(RunEnding(failure: PlaybackError(.connectionTimeout)) == .failed(.connectionTimeout))
    }
}
