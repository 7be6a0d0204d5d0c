/// How a live HLS playlist is followed (RFC 8216 6.3): which segments to fetch, when to load the
/// playlist again, and how many loads in a row brought no new segment.
///
/// Pure: the source tells it each playlist it loaded and each segment it delivered, and asks it,
/// once a pass over the playlist is over, whether the stream is finished or when to load the
/// playlist again, as an instant on the source's clock (time since the source's stopwatch started).
/// The count of loads that brought nothing is a fact the source reports
/// (`ConnectionFact.playlistUnchanged`): whether a playlist that stopped growing is a stalled
/// stream is the player's decision.
struct HLSPlaylistFollower: Sendable, Equatable {
    /// Segments from the end of a live playlist where playback starts (RFC 8216 6.3.3 asks for
    /// at least three target durations from the end).
    static let liveEdgeSegments = 3
    /// The shortest wait between loads, whatever target duration the playlist states.
    static let shortestReloadWait = Duration.milliseconds(100)

    /// What to do once a pass over the playlist is over.
    enum Step: Sendable, Equatable {
        /// The playlist has ended (`#EXT-X-ENDLIST`) and its segments were delivered.
        case finish
        /// Load the playlist again at `at`. `unchangedLoads`: loads in a row, up to this pass, that
        /// brought no new segment (0 when this pass brought one).
        case reload(at: Duration, unchangedLoads: Int)
    }

    /// The next segment to deliver; nil until the first playlist says where playback starts.
    private(set) var next: Int?
    /// Loads in a row that brought no new segment, as of the last pass.
    private(set) var unchangedLoads = 0
    /// The pass under way delivered a segment.
    private var brought = false

    /// - Parameter sequence: the segment to begin with (kept from an earlier connection, or a seek
    ///   in a finished playlist); nil starts where `startSequence(of:)` says.
    init(startingAt sequence: Int? = nil) {
        next = sequence
    }

    /// Where a first load starts: an ended playlist at its beginning, a live one near its edge.
    static func startSequence(of playlist: HLSMediaPlaylist) -> Int {
        guard !playlist.ended, let last = playlist.segments.last?.sequence else { return playlist.firstSequence }
        return max(playlist.firstSequence, last - (liveEdgeSegments - 1))
    }

    /// The segments of `playlist` to fetch now, in order: every one after the last delivered, or
    /// from where playback starts. When the next one has already left the playlist's window (a long
    /// reconnect), playback goes on from the live edge.
    mutating func segments(in playlist: HLSMediaPlaylist) -> [HLSSegment] {
        var from = next ?? Self.startSequence(of: playlist)
        if from < playlist.firstSequence { from = Self.startSequence(of: playlist) }
        next = from
        return playlist.segments.filter { $0.sequence >= from }
    }

    /// `segment` was delivered whole.
    mutating func delivered(_ segment: HLSSegment) {
        next = segment.sequence + 1
        brought = true
    }

    /// The pass over `playlist` is over at `now`. RFC 8216 6.3.4: the next load comes after the
    /// target duration, or half of it when this load brought no new segment.
    mutating func passEnded(over playlist: HLSMediaPlaylist, at now: Duration) -> Step {
        if playlist.ended { return .finish }
        unchangedLoads = brought ? 0 : unchangedLoads + 1
        let wait = brought ? playlist.targetDuration : playlist.targetDuration / 2
        brought = false
        return .reload(at: now + max(Self.shortestReloadWait, .seconds(wait)), unchangedLoads: unchangedLoads)
    }
}
