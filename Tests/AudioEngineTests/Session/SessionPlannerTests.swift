import Foundation
import PlayerCore
import TestProcesses
import Testing

@testable import AudioEngine

/// A session file becomes one queue item per stage: a stage with `loops` or `duration` is one
/// track whose length is the whole stage, and its repeats are the track's loop.
@Suite("Session planning", .blocking)
struct SessionPlannerTests {
    static func plan(_ json: String, source: Double?) throws -> PlayRequest {
        try SessionPlanner.plan(try SessionFile.decode(Data(json.utf8)), base: URL(fileURLWithPath: "/sessions"), probe: { _ in source })
    }

    @Test func aLoopedStageIsOneItemAsLongAsItsRepeatsLessTheirOverlaps() throws {
        let request = try Self.plan(
            """
            {"name": "Calm", "crossfade": 2, "stages": [
              {"title": "Arrival", "source": "a.flac"},
              {"title": "Breath", "source": "b.opus", "loops": 3, "loopCrossfade": 1.5, "curve": "linear"},
              {"title": "Rest", "source": "c.mp3", "duration": 40},
              {"source": "d.ogg", "duration": 10, "loopCrossfade": 4}
            ]}
            """, source: 25)
        #expect(request.items.count == 4)
        #expect(request.items.map { $0.track.title } == ["Arrival", "Breath", "Rest", "d"])
        // 3 x 25 s - 2 x 1.5 s; a `duration` stage lasts exactly its duration.
        #expect(request.items.map { $0.track.duration } == [25, 72, 40, 10])
        #expect(request.items[0].track.loop == nil)
        #expect(request.items[1].track.loop == SourceLoop(.repeats(3), crossfade: CrossfadeSpec(duration: 1.5, curve: .linear)))
        #expect(request.items[2].track.loop == SourceLoop(.seconds(40)))
        #expect(request.items[3].track.loop == SourceLoop(.seconds(10), crossfade: CrossfadeSpec(duration: 4)))
        // Only stages hand over, each with its own crossfade.
        #expect(request.items.map { $0.crossfadeIntoNext?.duration } == [2, 2, 2, 2])
        #expect(request.items[1].crossfadeIntoNext?.curve == .linear)
        #expect(Set(request.items.map(\.track.id)).count == 4)
        #expect(request.items.allSatisfy { $0.track.album == "Calm" })
    }

    @Test func theOverlapIsAtMostHalfTheSource() throws {
        // A 2 s source cannot overlap its repeats by 5 s: 1 s each, so 3 x 2 - 2 x 1.
        let request = try Self.plan(#"{"stages": [{"source": "b.opus", "loops": 3, "loopCrossfade": 5}]}"#, source: 2)
        #expect(request.items.map { $0.track.duration } == [4])
    }

    @Test func oneLoopIsAPlainTrackAndAnUnknownSourceLengthStaysUnknown() throws {
        let once = try Self.plan(#"{"stages": [{"source": "a.flac", "loops": 1}]}"#, source: 7)
        #expect(once.items.map { $0.track.duration } == [7])
        #expect(once.items[0].track.loop == nil)
        let unknown = try Self.plan(
            #"{"stages": [{"source": "a.flac", "loops": 2}, {"source": "b.flac", "duration": 12}]}"#, source: nil)
        #expect(unknown.items.map { $0.track.duration } == [nil, 12])
    }

    @Test func theLengthComesFromTheRealFile() throws {
        let fixtures = try AudioFixtures()
        try fixtures.write("count.wav", CountingWAV.data(frames: 24_000))
        let json = #"{"stages": [{"title": "Count", "source": "count.wav", "loops": 4, "loopCrossfade": 0.1}]}"#
        let request = try SessionPlanner.plan(try SessionFile.decode(Data(json.utf8)), base: fixtures.directory)
        #expect(request.items.count == 1)
        #expect(abs((request.items[0].track.duration ?? 0) - (4 * 0.5 - 3 * 0.1)) < 1e-9)
    }
}
