import MPDProtocol
import Testing

@testable import MPD

/// Arguments read as MPD reads them; anything else is the client's ACK, never a crash.
@Suite("MPD arguments")
struct MPDArgumentsTests {
    func args(_ values: String...) -> MPDArguments { MPDArguments(MPDCommand("x", values)) }

    @Test func rangesAndPositions() throws {
        #expect(try args("3").range(0, count: 10) == 3..<4)
        #expect(try args("2:5").range(0, count: 10) == 2..<5)
        #expect(try args("2:").range(0, count: 10) == 2..<10)
        for bad in ["5:2", "-1:3", "a:b", ":", "x"] {
            #expect(throws: MPDAck.self) { try args(bad).range(0, count: 10) }
        }
        // Relative to the current song, as MPD 0.23 takes them.
        #expect(try args("+0").position(0, current: 4, count: 10) == 5)
        #expect(try args("-1").position(0, current: 4, count: 10) == 3)
        #expect(throws: MPDAck.self) { try args("+0").position(0, current: nil, count: 10) }
        #expect(throws: MPDAck.self) { try args("11").position(0, current: nil, count: 10) }
    }

    @Test func numbersAndBooleans() throws {
        #expect(try args("1").bool(0))
        #expect(throws: MPDAck.self) { try args("yes").bool(0) }
        #expect(try args("12.5").seconds(0) == 12.5)
        #expect(throws: MPDAck.self) { try args("-3").seconds(0) }
        #expect(try args("-3").seconds(0, signed: true) == -3)
        #expect(throws: MPDAck.self) { try args("nan").seconds(0) }
        #expect(throws: MPDAck.self) { try args("inf").seconds(0) }
    }

    @Test func catalogPathsNeverLeaveTheirRoot() throws {
        #expect(try MPDCatalog.split("/Music//Jazz/") == ["Music", "Jazz"])
        #expect(throws: MPDAck.self) { try MPDCatalog.split("Music/../../etc/passwd") }
        #expect(throws: MPDAck.self) { try MPDCatalog.split("Music/./x") }
        #expect(MPDCatalog.component("AC/DC") == "AC∕DC")
        #expect(MPDCatalog.isStreamURL("https://radio.example/live"))
        #expect(!MPDCatalog.isStreamURL("file:///etc/passwd"))
        #expect(!MPDCatalog.isStreamURL("Music/a.mp3"))
    }
}
