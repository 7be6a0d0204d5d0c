import Foundation
import Testing

@testable import TerminalUI

@Suite("OSC 52 clipboard request")
struct OSC52Tests {
    @Test func theTextGoesBase64BetweenTheSequencesEnds() throws {
        let bytes = try #require(OSC52.sequence(copying: "Episode 42 — https://cdn.example/ep.mp3#t=5"))
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}]52;c;") && text.hasSuffix("\u{07}"))
        let payload = text.dropFirst(7).dropLast()
        #expect(String(decoding: Data(base64Encoded: String(payload))!, as: UTF8.self) == "Episode 42 — https://cdn.example/ep.mp3#t=5")
    }

    @Test func nothingIsSentForControlsOrTooMuch() {
        #expect(OSC52.sequence(copying: "a\u{07}b") == nil)
        #expect(OSC52.sequence(copying: "") == nil)
        #expect(OSC52.sequence(copying: String(repeating: "x", count: OSC52.maxBytes + 1)) == nil)
    }
}
