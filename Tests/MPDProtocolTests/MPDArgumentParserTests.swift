import MPDProtocol
import Testing

/// Arguments read as mpd 0.23 reads them, refused in its words (each answer below is what the
/// real mpd sent for the same argument).
@Suite("MPD argument parser")
struct MPDArgumentParserTests {
    @Test func unsignedNumbersAsStrtoulReadsThem() throws {
        #expect(try MPDArgumentParser.unsigned("7") == 7)
        #expect(try MPDArgumentParser.unsigned("+7") == 7)
        #expect(throws: MPDAck(.argument, "Integer expected: x")) { try MPDArgumentParser.unsigned("x") }
        #expect(throws: MPDAck(.argument, "Integer expected: 1x")) { try MPDArgumentParser.unsigned("1x") }
        // strtoul wraps a minus sign round: mpd calls -1 too large, not negative.
        #expect(throws: MPDAck(.argument, "Number too large: -1")) { try MPDArgumentParser.unsigned("-1") }
        #expect(throws: MPDAck(.argument, "Number too large: 256")) { try MPDArgumentParser.unsigned("256", max: 255) }
        #expect(throws: MPDAck(.argument, "Number too large: 4294967296")) { try MPDArgumentParser.unsigned("4294967296") }
        #expect(try MPDArgumentParser.u32("-1") == Int(UInt32.max), "plchanges -1 is a version newer than any")
        #expect(throws: MPDAck(.argument, "Boolean (0/1) expected: oneshot")) { try MPDArgumentParser.bool("oneshot") }
        #expect(throws: MPDAck(.argument, "Boolean (0/1) expected: 2")) { try MPDArgumentParser.bool("2") }
        #expect(throws: MPDAck(.argument, "Float expected: x")) { try MPDArgumentParser.float("x") }
        #expect(try MPDArgumentParser.float("-17.5") == -17.5)
        #expect(try MPDArgumentParser.float("nan").isNaN)
    }

    @Test func rangesAsMPDReadsThem() throws {
        #expect(try MPDRange(parsing: "3") == .single(3))
        #expect(try MPDRange(parsing: "3:7") == MPDRange(start: 3, end: 7))
        #expect(try MPDRange(parsing: "3:").isOpenEnded)
        #expect(try MPDRange(parsing: "-1") == .all, "an old client's way to ask for everything")
        #expect(try MPDRange(parsing: "2:2").isEmpty)
        #expect(throws: MPDAck(.argument, "Integer or range expected: x")) { try MPDRange(parsing: "x") }
        #expect(throws: MPDAck(.argument, "Integer or range expected: 1:x")) { try MPDRange(parsing: "1:x") }
        #expect(throws: MPDAck(.argument, "Number is negative: -2")) { try MPDRange(parsing: "-2") }
        #expect(throws: MPDAck(.argument, "Number is negative: -1:")) { try MPDRange(parsing: "-1:") }
        #expect(throws: MPDAck(.argument, "Malformed range: 2:1")) { try MPDRange(parsing: "2:1") }
    }

    /// A queue of five: END past the end is cut, START at the end names nothing, START past the
    /// end is "Bad song index" (`playlistinfo`, `delete`); `plchanges` cuts both ends.
    @Test func clippingAsMPDClips() throws {
        #expect(MPDRange(start: 3, end: 10).clipped(to: 5) == 3..<5)
        #expect(MPDRange(start: 5, end: 10).clipped(to: 5) == 5..<5)
        #expect(MPDRange.single(5).clipped(to: 5) == 5..<5)
        #expect(MPDRange(start: 6, end: 10).clipped(to: 5) == nil)
        #expect(throws: MPDAck(.argument, "Bad song index")) { try MPDRange.single(10).checked(count: 5) }
        #expect(MPDRange.all.clipped(to: 5) == 0..<5)
        #expect(MPDRange(start: 9, end: 12).relaxed(to: 5) == 5..<5)
        #expect(MPDRange.all.relaxed(to: 0) == 0..<0)
    }
}
