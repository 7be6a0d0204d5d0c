import Foundation
import Testing

@testable import Streaming

@Suite("HLS variant choice")
struct HLSVariantChoiceTests {
    static func variant(_ kbps: Int?) -> HLSVariant {
        HLSVariant(url: URL(string: "https://radio.example/\(kbps ?? 0).m3u8")!, bandwidth: kbps.map { $0 * 1000 }, codecs: ["mp4a.40.2"])
    }

    static let low = variant(48)
    static let middle = variant(128)
    static let high = variant(256)

    @Test func startsAtTheHighestWhateverTheListingOrder() {
        let choice = HLSVariantChoice(variants: [Self.middle, Self.high, Self.low])
        #expect(choice.current == Self.high)
        #expect(choice.variants == [Self.low, Self.middle, Self.high])
    }

    @Test func staysWhenTheDownloadsCarryTheVariantWithRoomToSpare() {
        var choice = HLSVariantChoice(variants: [Self.low, Self.middle, Self.high])
        // 100 KB in 0.2 s: 4 Mbit/s.
        choice.downloaded(bytes: 100_000, seconds: 0.2)
        #expect(choice.next() == Self.high)
    }

    @Test func goesDownToTheHighestTheThroughputSustains() {
        var choice = HLSVariantChoice(variants: [Self.low, Self.middle, Self.high])
        // 32 KB in 1.2 s: about 213 kbit/s, which carries 128 kbit/s with 1.5x room but not 256.
        choice.downloaded(bytes: 32_000, seconds: 1.2)
        #expect(choice.next() == Self.middle)
        // 32 KB in 4 s: 64 kbit/s carries none with room; the lowest is the floor.
        choice.downloaded(bytes: 32_000, seconds: 4)
        choice.downloaded(bytes: 32_000, seconds: 4)
        #expect(choice.next() == Self.low)
        #expect(choice.next() == Self.low)
    }

    @Test func anUnderrunStepsDownOneEvenWhenTheThroughputLooksFine() {
        var choice = HLSVariantChoice(variants: [Self.low, Self.middle, Self.high])
        choice.downloaded(bytes: 1_000_000, seconds: 0.1)
        choice.underran()
        #expect(choice.next() == Self.middle)
        // Only one step per underrun.
        #expect(choice.next() == Self.middle)
        choice.underran()
        #expect(choice.next() == Self.low)
        choice.underran()
        #expect(choice.next() == Self.low)
    }

    @Test func afterAStepDownItWaitsBeforeGoingUpAndThenGoesOneStepAtATime() {
        var choice = HLSVariantChoice(variants: [Self.low, Self.middle, Self.high])
        choice.downloaded(bytes: 10_000, seconds: 2)
        #expect(choice.next() == Self.low)
        // A fast line again: held at the lower variant for a while...
        for _ in 0..<4 { choice.downloaded(bytes: 1_000_000, seconds: 0.1) }
        var picks: [HLSVariant] = []
        for _ in 0..<(HLSVariantChoice.holdAfterStepDown + 2) { picks.append(choice.next()) }
        #expect(picks.prefix(HLSVariantChoice.holdAfterStepDown - 1).allSatisfy { $0 == Self.low }, "\(picks.map(\.bandwidth))")
        // ...then up one step, then the next.
        #expect(picks.suffix(2) == [Self.middle, Self.high], "\(picks.map(\.bandwidth))")
    }

    @Test func nonsenseMeasurementsAreIgnored() {
        var choice = HLSVariantChoice(variants: [Self.low, Self.high])
        choice.downloaded(bytes: 0, seconds: 1)
        choice.downloaded(bytes: 1000, seconds: 0)
        choice.downloaded(bytes: 1000, seconds: .nan)
        #expect(choice.throughput == nil)
        #expect(choice.next() == Self.high)
    }

    @Test func variantsWithoutABandwidthCountAsTheLowest() {
        let unknown = Self.variant(nil)
        var choice = HLSVariantChoice(variants: [Self.high, unknown])
        #expect(choice.current == Self.high)
        choice.underran()
        #expect(choice.next() == unknown)
    }
}
