import PlayerCore

/// Where the player gets an item's transcript (an episode's from its feed or the library, a file's
/// from a subtitle file beside it). The engine does no network I/O of its own; `PlayerKit` plugs
/// the source in.
package protocol TranscriptSource: Sendable {
    /// The transcript of `track`, or why it could not be had; nil when it has none to look for.
    /// Asked once per item when it loads; a failure never stops playback.
    func transcript(for track: Track) async -> Result<Transcript, PlaybackError>?
}

/// The transcripts the player knows for the items on its decks, and what it has told of them.
struct KnownTranscripts {
    private var known: [String: Transcript] = [:]
    /// Items whose transcript was asked for (a reload after a reconnect does not ask again).
    private var asked: Set<String> = []
    /// What was last published: the transcript (by its item) and the cue the position was in.
    private(set) var publishedItem: String?
    private(set) var published: Transcript?
    private(set) var publishedCue: TranscriptCuePosition?

    mutating func learned(_ transcript: Transcript, for trackID: String) { known[trackID] = transcript }

    /// True the first time `trackID`'s transcript is asked for.
    mutating func asks(_ trackID: String) -> Bool { asked.insert(trackID).inserted }

    /// Forgets the transcripts of items on no deck any more.
    mutating func keep(only trackIDs: Set<String>) {
        known = known.filter { trackIDs.contains($0.key) }
        asked = asked.filter { trackIDs.contains($0) }
    }

    /// The transcript to publish for the current item, if it differs from the one told.
    mutating func change(current trackID: String?) -> Transcript?? {
        let transcript = trackID.flatMap { known[$0] }
        guard transcript != published || (transcript != nil && trackID != publishedItem) else { return nil }
        published = transcript
        publishedItem = trackID
        return .some(transcript)
    }

    /// The cue to publish for `position` of the current item, if it differs from the one told.
    mutating func cueChange(at position: Double) -> TranscriptCuePosition?? {
        let current = published?.current(at: position)
        guard current != publishedCue else { return nil }
        publishedCue = current
        return .some(current)
    }

    /// Whether a cue is being shown that has to be cleared along with the transcript.
    mutating func clearCue() -> Bool {
        guard publishedCue != nil else { return false }
        publishedCue = nil
        return true
    }
}
