import Foundation
import Testing

@testable import Streaming

/// How a live playlist is followed, without a network or a clock: which segments come next, when
/// the playlist is loaded again, and how many loads in a row brought nothing new.
@Suite("HLS playlist follower")
struct HLSPlaylistFollowerTests {
    static func playlist(_ sequences: ClosedRange<Int>, target: Double = 6, ended: Bool = false) -> HLSMediaPlaylist {
        HLSMediaPlaylist(
            targetDuration: target, firstSequence: sequences.lowerBound,
            segments: sequences.map { sequence in
                HLSSegment(
                    sequence: sequence, url: URL(string: "https://radio.example/\(sequence).ts")!, duration: target, title: nil,
                    discontinuity: false, initialization: nil)
            },
            ended: ended)
    }

    /// The sequence numbers `follower` would fetch from `playlist` now.
    static func next(_ follower: inout HLSPlaylistFollower, in playlist: HLSMediaPlaylist) -> [Int] {
        follower.segments(in: playlist).map(\.sequence)
    }

    /// Delivers every segment `follower` asks for in `playlist`, then ends the pass at `now`.
    static func pass(_ follower: inout HLSPlaylistFollower, over playlist: HLSMediaPlaylist, at now: Duration) -> HLSPlaylistFollower.Step {
        for segment in follower.segments(in: playlist) { follower.delivered(segment) }
        return follower.passEnded(over: playlist, at: now)
    }

    @Test func aLivePlaylistStartsNearItsEdge_aFinishedOneAtItsBeginning() {
        var live = HLSPlaylistFollower()
        let fetched1 = Self.next(&live, in: Self.playlist(10...19))

        #expect(fetched1 == [17, 18, 19])
        var recording = HLSPlaylistFollower()
        let fetched2 = Self.next(&recording, in: Self.playlist(10...19, ended: true))

        #expect(fetched2 == Array(10...19))
        var short = HLSPlaylistFollower()
        let fetched3 = Self.next(&short, in: Self.playlist(3...4))

        #expect(fetched3 == [3, 4])
    }

    @Test func onlyNewSegmentsComeNext_fromTheOneKeptAcrossConnections() {
        var follower = HLSPlaylistFollower(startingAt: 15)
        let fetched4 = Self.next(&follower, in: Self.playlist(10...16))

        #expect(fetched4 == [15, 16])
        _ = Self.pass(&follower, over: Self.playlist(10...16), at: .zero)
        #expect(follower.next == 17)
        let fetched5 = Self.next(&follower, in: Self.playlist(11...18))

        #expect(fetched5 == [17, 18])
    }

    @Test func aNextSegmentThatLeftTheWindowGoesOnFromTheLiveEdge() {
        var follower = HLSPlaylistFollower(startingAt: 5)
        let fetched6 = Self.next(&follower, in: Self.playlist(40...49))

        #expect(fetched6 == [47, 48, 49])
        #expect(follower.next == 47)
    }

    @Test func theNextLoadComesATargetDurationAfterAPassThatBroughtSegments_halfOfItAfterOneThatBroughtNone() {
        var follower = HLSPlaylistFollower()
        let playlist = Self.playlist(1...5, target: 4)
        let brought = Self.pass(&follower, over: playlist, at: .seconds(100))
        #expect(brought == .reload(at: .seconds(104), unchangedLoads: 0))
        let nothing = Self.pass(&follower, over: playlist, at: .seconds(104.5))
        #expect(nothing == .reload(at: .seconds(106.5), unchangedLoads: 1))
    }

    @Test func unchangedLoadsAreCountedInARow_andANewSegmentStartsTheCountAgain() {
        var follower = HLSPlaylistFollower()
        let playlist = Self.playlist(1...3, target: 2)
        _ = Self.pass(&follower, over: playlist, at: .zero)
        var counts: [Int] = []
        for pass in 1...5 {
            if case .reload(_, let unchanged) = Self.pass(&follower, over: playlist, at: .seconds(pass)) { counts.append(unchanged) }
        }
        #expect(counts == [1, 2, 3, 4, 5])
        let grown = Self.pass(&follower, over: Self.playlist(1...4, target: 2), at: .seconds(6))
        #expect(grown == .reload(at: .seconds(8), unchangedLoads: 0))
    }

    @Test func anEndedPlaylistFinishes_andATargetOfZeroStillWaitsAMoment() {
        var ended = HLSPlaylistFollower()
        let finished = Self.pass(&ended, over: Self.playlist(1...2, ended: true), at: .seconds(1))
        #expect(finished == .finish)
        var hurried = HLSPlaylistFollower(startingAt: 2)
        let step = Self.pass(&hurried, over: Self.playlist(1...1, target: 0), at: .seconds(1))
        #expect(step == .reload(at: .seconds(1) + HLSPlaylistFollower.shortestReloadWait, unchangedLoads: 1))
    }
}
