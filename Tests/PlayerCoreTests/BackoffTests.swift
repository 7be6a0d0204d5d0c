import Testing
@testable import PlayerCore

/// Bounds of every backoff strategy over many seeds, and the named presets.
@Suite("Backoff policies")
struct BackoffTests {
    static let seeds: [UInt64] = Array(0..<1_000).map { UInt64($0) &* 0x9E37_79B9 &+ 7 }
    static let retries = 1...10

    /// Collects `retries.count` chained delays (each feeding `previous` of the next) for one seed.
    static func delays(_ policy: BackoffPolicy, seed: UInt64) -> [Double] {
        var random = SeededRandom(seed: seed)
        var previous: Double?
        return retries.map { retry in
            let d = policy.delay(forRetry: retry, previous: previous, using: &random)
            previous = d
            return d
        }
    }

    @Test func fullJitterStaysWithinZeroAndNominal() {
        let policy = BackoffPolicy(maxAttempts: 10, base: 0.5, multiplier: 2, cap: 20, strategy: .fullJitter)
        var lowest = Double.infinity, highest = 0.0
        for seed in Self.seeds {
            for (retry, d) in zip(Self.retries, Self.delays(policy, seed: seed)) {
                let nominal = min(20, 0.5 * pow2(retry - 1))
                #expect(d >= 0 && d <= nominal, "seed \(seed) retry \(retry): \(d) not in [0, \(nominal)]")
                if retry == 3 { lowest = min(lowest, d / nominal); highest = max(highest, d / nominal) }
            }
        }
        // Really jittered over the whole range, not a constant.
        #expect(lowest < 0.05)
        #expect(highest > 0.95)
    }

    @Test func equalJitterStaysWithinHalfAndNominal() {
        let policy = BackoffPolicy(maxAttempts: 10, base: 1, multiplier: 2, cap: 30, strategy: .equalJitter)
        var lowest = Double.infinity
        for seed in Self.seeds {
            for (retry, d) in zip(Self.retries, Self.delays(policy, seed: seed)) {
                let nominal = min(30, pow2(retry - 1))
                #expect(d >= nominal / 2 && d <= nominal, "seed \(seed) retry \(retry): \(d)")
                if retry == 2 { lowest = min(lowest, d) }
            }
        }
        #expect(lowest < 1.05)
    }

    @Test func decorrelatedJitterStaysWithinBaseAndThreeTimesPrevious() {
        let policy = BackoffPolicy(maxAttempts: 10, base: 1, multiplier: 2, cap: 15, strategy: .decorrelatedJitter)
        var reachedCap = false
        for seed in Self.seeds {
            var previous = policy.base
            for (retry, d) in zip(Self.retries, Self.delays(policy, seed: seed)) {
                let upper = min(15, 3 * previous)
                #expect(d >= 1 && d <= upper, "seed \(seed) retry \(retry): \(d) not in [1, \(upper)]")
                if d == 15 { reachedCap = true }
                previous = d
            }
        }
        #expect(reachedCap)
    }

    @Test(arguments: [0.15, 0.2, 0.5])
    func proportionalJitterStaysAroundNominal(fraction: Double) {
        let policy = BackoffPolicy(maxAttempts: 10, base: 1, multiplier: 1.6, cap: 30, strategy: .proportionalJitter(fraction: fraction))
        var below = false, above = false
        for seed in Self.seeds {
            for (retry, d) in zip(Self.retries, Self.delays(policy, seed: seed)) {
                let nominal = policy.nominalDelay(forRetry: retry)
                let low = nominal * (1 - fraction), high = nominal * (1 + fraction)
                #expect(d >= low - 1e-9 && d <= high + 1e-9, "seed \(seed) retry \(retry): \(d) not in [\(low), \(high)]")
                if d < nominal * (1 - fraction / 2) { below = true }
                if d > nominal * (1 + fraction / 2) { above = true }
            }
        }
        #expect(below && above)
    }

    @Test func constantIsAlwaysBase() {
        let policy = BackoffPolicy(maxAttempts: 10, base: 2.5, cap: 60, strategy: .constant)
        for seed in Self.seeds.prefix(100) {
            #expect(Self.delays(policy, seed: seed).allSatisfy { $0 == 2.5 })
        }
    }

    @Test func linearIsBaseTimesRetryCapped() {
        let policy = BackoffPolicy(maxAttempts: 10, base: 2, multiplier: 1, cap: 9, strategy: .linear)
        for seed in Self.seeds.prefix(100) {
            #expect(Self.delays(policy, seed: seed) == Self.retries.map { min(9, 2 * Double($0)) })
        }
    }

    @Test func reconnectNominalSequenceGrowsBy1_6UpTo30() {
        let expected: [Double] = [1, 1.6, 2.56, 4.096, 6.5536, 10.48576, 16.777216, 26.8435456, 30, 30, 30]
        for (i, value) in expected.enumerated() {
            #expect(abs(BackoffPolicy.reconnect.nominalDelay(forRetry: i + 1) - value) < 1e-9, "retry \(i + 1)")
        }
        #expect(BackoffPolicy.reconnect.strategy == .proportionalJitter(fraction: 0.2))
    }

    @Test func reconnectAttemptsAreWhatFitsInTwoMinutes() {
        // Independent of `attempts(within:)`: add nominal waits until the next one would pass 120 s.
        var total = 0.0, wait = 1.0, waits = 0
        while total + min(30, wait) <= 120 {
            total += min(30, wait)
            waits += 1
            wait *= 1.6
        }
        #expect(BackoffPolicy.reconnect.maxAttempts == waits + 1)
        #expect(BackoffPolicy.reconnect.maxAttempts == 10)  // 9 waits: 99.9 s; a 10th would be 129.9 s
        #expect(ResilienceDefaults.reconnectGiveUpAfter == 120)
    }

    @Test func artworkRetriesAfterTwoFourAndSixSeconds() {
        var random = SeededRandom(seed: 1)
        let policy = BackoffPolicy.artwork
        #expect(policy.maxAttempts == 4)
        #expect(policy.delay(forRetry: 1, using: &random) == 2)
        #expect(policy.delay(forRetry: 2, previous: 2, using: &random) == 4)
        #expect(policy.delay(forRetry: 3, previous: 4, using: &random) == 6)
    }

    @Test(arguments: [
        (BackoffPolicy.critical, 5, 0.5),
        (BackoffPolicy.network, 3, 1.0),
        (BackoffPolicy.quick, 2, 0.5),
    ])
    func requestPresets(policy: BackoffPolicy, attempts: Int, base: Double) {
        #expect(policy.maxAttempts == attempts)
        #expect(policy.base == base)
        #expect(policy.cap == 60)
        #expect(policy.strategy == .proportionalJitter(fraction: 0.15))
    }

    @Test(arguments: [
        BackoffPolicy.Strategy.fullJitter, .equalJitter, .decorrelatedJitter, .proportionalJitter(fraction: 0.2),
    ])
    func sameSeedGivesSameDelays(strategy: BackoffPolicy.Strategy) {
        let policy = BackoffPolicy(maxAttempts: 10, base: 1, cap: 30, strategy: strategy)
        for seed in Self.seeds.prefix(100) {
            #expect(Self.delays(policy, seed: seed) == Self.delays(policy, seed: seed))
        }
        #expect(Self.delays(policy, seed: 1) != Self.delays(policy, seed: 2))
    }

    private func pow2(_ n: Int) -> Double { Double(1 << n) }
}
