import Foundation
import PlayerCore
import Testing

@testable import Library

/// The order an episode's files are tried in, and what SRI values mean.
@Suite("Audio sources and integrity values")
struct AudioSourceOrderTests {
    let main = URL(string: "https://cdn.example/main.mp3")!
    let digest = SubresourceIntegrity(algorithm: .sha256, digests: [Data(repeating: 1, count: 32)])

    func alternate(_ name: String, bitrate: Double?, isDefault: Bool = false) -> AlternateEnclosure {
        AlternateEnclosure(
            type: "audio/mpeg", bitrate: bitrate, isDefault: isDefault, sources: [URL(string: "https://m.example/\(name).mp3")!],
            integrity: isDefault ? digest : nil)
    }

    @Test func theEnclosureFirstThenTheDefaultThenTheRestAndTheDefaultsDigestGuardsTheEnclosure() {
        let order = AudioSource.order(
            enclosure: main, alternates: [alternate("low", bitrate: 32_000), alternate("same", bitrate: 128_000, isDefault: true)],
            prefersLowBitrate: false)
        #expect(order.map(\.url.lastPathComponent) == ["main.mp3", "same.mp3", "low.mp3"])
        #expect(order[0].integrity == digest && order[2].integrity == nil)
    }

    @Test func aLowBitrateFirstWhenPreferredAndEachAddressOnce() {
        let order = AudioSource.order(
            enclosure: URL(string: "https://m.example/high.mp3")!,
            alternates: [alternate("high", bitrate: 256_000), alternate("unknown", bitrate: nil), alternate("low", bitrate: 32_000)],
            prefersLowBitrate: true)
        #expect(order.map(\.url.lastPathComponent) == ["low.mp3", "high.mp3", "unknown.mp3"])
    }

    @Test(arguments: [
        ("sha256-AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE= md5-abc", SubresourceIntegrity.Algorithm.sha256, 1),
        ("sha256-AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE= sha512-" + Data(repeating: 2, count: 64).base64EncodedString(), .sha512, 1),
        ("sha384-" + Data(repeating: 3, count: 48).base64EncodedString() + "?opt sha384-" + Data(repeating: 4, count: 48).base64EncodedString(), .sha384, 2),
    ])
    func theStrongestAlgorithmCounts(text: String, algorithm: SubresourceIntegrity.Algorithm, count: Int) throws {
        let value = try #require(SubresourceIntegrity(text))
        #expect(value.algorithm == algorithm && value.digests.count == count)
    }

    @Test(arguments: ["", "md5-abc", "sha256-short", "sha256-", "nonsense"])
    func nothingUsableIsNoValue(text: String) {
        #expect(SubresourceIntegrity(text) == nil)
    }
}
