import AudioEngine
import Testing

@testable import PlayerKit

/// `--output snapcast:...` as the listener writes it.
@Suite("Output choice: Snapcast")
struct OutputChoiceSnapcastTests {
    @Test func snapcastAddressesParseAndAnythingElseIsRefused() {
        #expect(OutputChoice(argument: "snapcast:tcp://127.0.0.1:4953") == .snapcast(.tcp(host: "127.0.0.1", port: 4953)))
        #expect(OutputChoice(argument: "snapcast:pipe:/tmp/snapfifo") == .snapcast(.pipe(path: "/tmp/snapfifo")))
        for wrong in ["snapcast:", "snapcast:tcp://host", "snapcast:/tmp/snapfifo", "snapcast"] {
            #expect(OutputChoice(argument: wrong) == nil, "\(wrong)")
        }
        #expect(OutputChoice(argument: "null") == .null)
    }

    @Test func aSnapcastSourceIsPlayedInRealTime() {
        let choice = OutputChoice.snapcast(.tcp(host: "127.0.0.1", port: 4953))
        #expect(!choice.canRenderFast)
        #expect(choice.makeSink(realtime: true).isRealtime)
        #expect(choice.description == "Snapcast source tcp://127.0.0.1:4953")
    }
}
