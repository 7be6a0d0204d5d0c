import Testing

@testable import TerminalApp

/// Which command lines start FFmpeg's load before they are parsed.
@Suite("Early decoder load")
struct EarlyDecoderLoadTests {
    @Test func aPlaybackOfFilesOrASessionStartsTheLoad() {
        #expect(EarlyDecoderLoad.wanted(for: ["tonearm", "play", "a.mp3"]))
        #expect(EarlyDecoderLoad.wanted(for: ["/usr/bin/tonearm", "play", "--output", "null", "a.mp3", "b.flac"]))
        #expect(EarlyDecoderLoad.wanted(for: ["tonearm", "play", "--session=evening"]))
    }

    /// A stream connects first: its threads would wait for the load, and its bytes take longer.
    @Test func streamsEpisodesAndStationsDoNot() {
        #expect(!EarlyDecoderLoad.wanted(for: ["tonearm", "play", "http://radio.example/live"]))
        #expect(!EarlyDecoderLoad.wanted(for: ["tonearm", "play", "a.mp3", "https://radio.example/live.m3u"]))
        #expect(!EarlyDecoderLoad.wanted(for: ["tonearm", "play", "--station", "7"]))
        #expect(!EarlyDecoderLoad.wanted(for: ["tonearm", "play", "--episode=12", "--soundbite", "1"]))
    }

    /// Help decodes nothing and would wait at exit for a load it started.
    @Test func helpDoesNot() {
        #expect(!EarlyDecoderLoad.wanted(for: ["tonearm", "play", "--help"]))
        #expect(!EarlyDecoderLoad.wanted(for: ["tonearm", "play", "a.mp3", "-h"]))
        #expect(!EarlyDecoderLoad.wanted(for: ["tonearm", "help", "play"]))
    }

    /// The program itself is never a command: only the first word after it counts.
    @Test func otherCommandsDoNot() {
        #expect(!EarlyDecoderLoad.wanted(for: ["tonearm"]))
        #expect(!EarlyDecoderLoad.wanted(for: ["play"]))
        #expect(!EarlyDecoderLoad.wanted(for: ["tonearm", "--version"]))
        #expect(!EarlyDecoderLoad.wanted(for: ["tonearm", "podcast", "play", "3"]))
        #expect(!EarlyDecoderLoad.wanted(for: ["tonearm", "errors", "play"]))
    }
}
