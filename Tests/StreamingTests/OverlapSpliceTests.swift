import Streaming
import Testing

/// Joining a reconnected live stream to what was received: repeats dropped, gaps passed through.
@Suite("Overlap splice")
struct OverlapSpliceTests {
    /// Bytes that never repeat a 4-byte window (a counter), like real compressed audio.
    static func stream(_ range: Range<Int>) -> [UInt8] {
        range.flatMap { value -> [UInt8] in withUnsafeBytes(of: UInt32(value).bigEndian) { Array($0) } }
    }

    @Test func aBurstThatRepeatsTheLastSecondsIsDroppedUpToTheNewBytes() {
        var splice = OverlapSplice(historyCapacity: 64 * 1024, probeLength: 1024)
        let before = Self.stream(0..<10_000)
        #expect(splice.feed(before) == before)
        splice.newConnection()
        // The server repeats the last 6,000 counters (24,000 bytes), then goes on, in small parts.
        let after = Self.stream(4_000..<14_000)
        var delivered: [UInt8] = []
        for start in stride(from: 0, to: after.count, by: 700) {
            delivered += splice.feed(Array(after[start..<min(start + 700, after.count)]))
        }
        #expect(delivered == Self.stream(10_000..<14_000))
        #expect(splice.droppedRepeats == 24_000)
    }

    @Test func aRepeatLongerThanWhatArrivedKeepsDroppingUntilTheNewPart() {
        var splice = OverlapSplice(historyCapacity: 64 * 1024, probeLength: 512)
        _ = splice.feed(Self.stream(0..<5_000))
        splice.newConnection()
        #expect(splice.feed(Self.stream(1_000..<1_500)).isEmpty)
        #expect(splice.feed(Self.stream(1_500..<4_990)).isEmpty)
        #expect(splice.feed(Self.stream(4_990..<5_010)) == Self.stream(5_000..<5_010))
        #expect(splice.feed(Self.stream(5_010..<5_020)) == Self.stream(5_010..<5_020))
    }

    @Test func aServerThatLostItsQueueSendsNewAudioWhichAllPasses() {
        var splice = OverlapSplice(historyCapacity: 64 * 1024, probeLength: 1024)
        _ = splice.feed(Self.stream(0..<10_000))
        splice.newConnection()
        let fresh = Self.stream(50_000..<52_000)
        var delivered = splice.feed(Array(fresh[0..<500]))
        #expect(delivered.isEmpty)
        delivered += splice.feed(Array(fresh[500...]))
        #expect(delivered == fresh)
        #expect(splice.droppedRepeats == 0)
    }

    @Test func repeatedFramesJoinWhereTheWholeRepeatAgrees() {
        // Encoded silence repeats the same frame: the join must be where everything after agrees.
        let silence = [UInt8](repeating: 0x55, count: 2_000)
        var splice = OverlapSplice(historyCapacity: 64 * 1024, probeLength: 256)
        let before = Self.stream(0..<100) + silence + Self.stream(100..<200) + silence
        _ = splice.feed(before)
        splice.newConnection()
        let after = silence + Self.stream(200..<300)
        #expect(splice.feed(after) == Self.stream(200..<300))
    }

    @Test func aConnectionThatEndsBeforeItCouldBeComparedPassesWhatItSent() {
        var splice = OverlapSplice(historyCapacity: 4_096, probeLength: 1_024)
        _ = splice.feed(Self.stream(0..<2_000))
        splice.newConnection()
        #expect(splice.feed([1, 2, 3]).isEmpty)
        #expect(splice.flush() == [1, 2, 3])
        // A first connection has nothing to repeat.
        var first = OverlapSplice()
        first.newConnection()
        #expect(first.feed([9, 9]) == [9, 9])
    }
}
