import Foundation
import PlayerCore
import Testing

/// A looped track's length: n repeats less the n - 1 overlaps between them, or a fixed length.
@Suite("Source loops")
struct SourceLoopTests {
    @Test func lengthOfRepeatsLessOverlaps() {
        #expect(SourceLoop(.repeats(3)).playLength(source: 25) == 75)
        #expect(SourceLoop(.repeats(3), crossfade: CrossfadeSpec(duration: 2)).playLength(source: 25) == 71)
        // An overlap longer than half the source is shortened to half of it.
        #expect(SourceLoop(.repeats(2), crossfade: CrossfadeSpec(duration: 9)).playLength(source: 4) == 6)
        #expect(SourceLoop(.repeats(2)).playLength(source: nil) == nil)
        #expect(SourceLoop(.seconds(40), crossfade: CrossfadeSpec(duration: 3)).playLength(source: 25) == 40)
        #expect(SourceLoop(.seconds(40)).playLength(source: nil) == 40)
        // At least one repeat.
        #expect(SourceLoop(.repeats(0)) == SourceLoop(.repeats(1)))
    }

    @Test func aTrackKeepsItsLoopThroughCopiesAndCoding() throws {
        let loop = SourceLoop(.seconds(40), crossfade: CrossfadeSpec(duration: 1.5, curve: .linear))
        let track = Track(id: "s#2", url: URL(fileURLWithPath: "/b.opus"), kind: .file, title: "Breath", duration: 40, loop: loop)
        #expect(track.with(id: "other").loop == loop)
        let decoded = try JSONDecoder().decode(Track.self, from: JSONEncoder().encode(track))
        #expect(decoded == track)
        // A live stream never loops: its connection ending is a drop.
        let live = Track(id: "r", url: URL(string: "http://127.0.0.1/live")!, kind: .liveStream, loop: loop)
        #expect(live.loop == nil)
    }
}
