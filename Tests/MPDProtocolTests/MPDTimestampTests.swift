import Foundation
import MPDProtocol
import Testing

/// `Last-Modified` as mpd prints it, by arithmetic: the same text Foundation's ISO 8601 formatter
/// gives in UTC, for dates across eras, leap days and the ends of days, and read back by `parse`.
@Suite("MPD time stamps")
struct MPDTimestampTests {
    static func foundation(_ seconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: Double(seconds)))
    }

    @Test func formatsAsFoundationDoesAndReadsBack() throws {
        var samples: [Int64] = [0, 59, 86_399, 86_400, 951_782_400, 951_868_799, 1_700_000_000, 4_102_444_800, 253_402_300_799, -1, -86_400]
        var state: UInt64 = 0x5EED
        for _ in 0..<2_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            samples.append(Int64(state % 4_102_444_800))
        }
        for seconds in samples {
            let text = MPDTimestamp.format(Double(seconds))
            #expect(text == Self.foundation(seconds), "\(seconds)")
            if seconds >= 0 { #expect(try MPDTimestamp.parse(text) == seconds, "\(text)") }
        }
        #expect(MPDTimestamp.format(1_700_000_000.9) == "2023-11-14T22:13:20Z", "a fraction is cut")
        #expect(MPDTimestamp.format(.nan) == "1970-01-01T00:00:00Z")
    }
}
