import Foundation

/// Stalls: when a network source's silence means its connection is dead.
///
/// Sources only say when they run dry (`stalled`: a reader waits, no bytes come) and when bytes
/// come again (`receiving`). A deck dry for `Configuration.stallTimeout` while the listener is
/// waiting on it (opening, playing, buffering, or the incoming side of a crossfade) has its
/// connection abandoned (`abandonConnection`): an episode asks again at the same byte, a live
/// stream fails and reconnects through the one reconnect policy. While paused nobody waits, so
/// nothing is decided; the wait counts again from the resume.
///
/// One timer serves both decks, and it is not moved for every short dry spell (a live stream runs
/// dry between most network packets): when it fires, the decks still dry long enough are given up
/// and it is set again for the next that could be.
///
/// A live HLS playlist can stall while its connection works: the source then tells how many loads
/// in a row brought no new segment (`playlistUnchanged`). At `Configuration.unchangedPlaylistLoads`
/// (three target durations without a new segment, at the protocol's pace) the stream has stalled at
/// its origin, and the machine answers as for a drop with the `stalled` cause: a playing stream is
/// asked for again in the background while its buffer plays (a reconnect that brings a segment
/// ends it), anywhere else its connection is given up.
extension PlayerStateMachine {
    /// `since`: when the current dry spell began (a shell may fold several reports into one). The
    /// later of it and the machine's own start wins: a resume or a given-up connection restarts
    /// the wait, and a report of the same spell must not take that back.
    mutating func sourceRanDry(_ deck: DeckID, at since: PlayerTime) -> [PlayerEffect] {
        let at = max(drySince[deck] ?? since, since)
        drySince[deck] = at
        if stallCheckAt == nil { stallCheckAt = at + configuration.stallTimeout }
        return []
    }

    mutating func sourceReceiving(_ deck: DeckID) -> [PlayerEffect] {
        drySince[deck] = nil
        unchangedPlaylistLoads[deck] = nil
        return backgroundReconnectAnswered(deck)
    }

    /// Decides once per run of unchanged loads, when the count reaches the limit (a shell that folds
    /// reports may skip counts; a reopened source counts from 1 again).
    mutating func playlistUnchanged(_ deck: DeckID, loads: Int, at now: PlayerTime) -> [PlayerEffect] {
        let before = unchangedPlaylistLoads[deck] ?? 0
        unchangedPlaylistLoads[deck] = loads
        let limit = configuration.unchangedPlaylistLoads
        guard before < limit, loads >= limit else { return [] }
        let cause = PlaybackError(.stalled, underlying: "the live playlist brought no new segment in \(loads) loads")
        return streamDropped(deck, cause: cause, at: now)
    }

    /// The stall timer fired: abandons every watched connection dry for the stall timeout.
    mutating func checkStalls(at now: PlayerTime) -> [PlayerEffect] {
        stallCheckAt = nil
        var effects: [PlayerEffect] = []
        for deck in [DeckID.a, .b] {
            guard let since = drySince[deck], isWaitedOn(deck) else { continue }
            guard now >= since + configuration.stallTimeout else { continue }
            let opening = pendingLoad?.deck == deck
            let cause = opening
                ? PlaybackError(.connectionTimeout, underlying: "no answer or audio for \(configuration.stallTimeout) s while opening")
                : PlaybackError(.stalled, underlying: "no bytes for \(configuration.stallTimeout) s")
            effects.append(.abandonConnection(deck, cause: cause))
            if !opening, deck == activeDeck, let track = state.currentTrack { connectionIncidents.record(.stall, of: track.id, at: now) }
            // The source's next connection (an episode's resume) gets a wait of its own.
            drySince[deck] = now
        }
        stallCheckAt = nextStallCheck()
        return effects
    }

    /// After a pause: the wait of a source that was dry counts from now.
    mutating func restartDrySpells(at now: PlayerTime) {
        for deck in drySince.keys { drySince[deck] = now }
        stallCheckAt = nextStallCheck()
    }

    /// The earliest instant a watched dry deck could stall.
    func nextStallCheck() -> PlayerTime? {
        [DeckID.a, .b]
            .compactMap { deck in isWaitedOn(deck) ? drySince[deck].map { $0 + configuration.stallTimeout } : nil }
            .min()
    }

    /// Whether someone waits on `deck`'s source now, so that its silence matters.
    func isWaitedOn(_ deck: DeckID) -> Bool {
        if pendingLoad?.deck == deck { return true }
        switch state {
        case .playing(let track), .buffering(let track, _, _), .seeking(let track, _, _), .preparingCrossfade(let track, _):
            if deck == activeDeck { return track.isRemote }
            // The next item, decoding ahead of its crossfade.
            guard let item = next, item.ready, queue.indices.contains(item.index) else { return false }
            return queue[item.index].track.isRemote
        case .crossfading(_, let to, _, _):
            return deck == crossfade?.to && to.isRemote
        case .idle, .preparing, .paused, .crossfadePaused, .reconnecting, .fadingOut, .finished, .failed:
            return false
        }
    }
}
