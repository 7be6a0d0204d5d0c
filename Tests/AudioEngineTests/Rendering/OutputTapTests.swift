import Testing

@testable import AudioEngine

/// The tap the level meter reads: nothing is copied while no one watches; while watched, the
/// newest frames come out in order across the ring's wrap.
@Suite("Output tap")
struct OutputTapTests {
    static func frames(_ range: Range<Int>) -> [Float] { range.flatMap { [Float($0), -Float($0)] } }

    @Test func nothingIsRecordedWhileNoOneWatches() {
        let tap = OutputTap()
        let block = Self.frames(0..<480)
        block.withUnsafeBufferPointer { tap.record($0.baseAddress!, frames: 480) }
        #expect(tap.recorded == 0)
        #expect(tap.latest().samples.allSatisfy { $0 == 0 })
    }

    @Test func theNewestFramesComeOutInOrder() {
        let tap = OutputTap()
        tap.isWatched = true
        // 3000 frames in blocks of 700: the ring (2048) wraps.
        for start in stride(from: 0, to: 3_000, by: 700) {
            let block = Self.frames(start..<min(start + 700, 3_000))
            block.withUnsafeBufferPointer { tap.record($0.baseAddress!, frames: block.count / 2) }
        }
        let (samples, recorded) = tap.latest()
        #expect(recorded == 3_000)
        #expect(samples == Self.frames((3_000 - OutputTap.capacity)..<3_000))
    }

    @Test func aBlockLongerThanTheRingKeepsItsEnd() {
        let tap = OutputTap()
        tap.isWatched = true
        let block = Self.frames(0..<8_192)
        block.withUnsafeBufferPointer { tap.record($0.baseAddress!, frames: 8_192) }
        #expect(tap.latest().samples == Self.frames((8_192 - OutputTap.capacity)..<8_192))
    }
}
