import Foundation

/// A queue edited while it plays: what comes after the current item changes, the current item does
/// not.
extension PlayerStateMachine {
    /// The queue index of the item the listener hears as current: once a crossfade has begun, the
    /// incoming one (the outgoing one is leaving); nil when nothing is current.
    var audibleIndex: Int? {
        switch state {
        case .idle, .finished, .failed:
            return nil
        case .crossfading, .crossfadePaused:
            return next?.index ?? (queue.indices.contains(index) ? index : nil)
        default:
            return queue.indices.contains(index) ? index : nil
        }
    }

    /// Which item of the front end's list is current (the one heard; the incoming one once a
    /// crossfade has begun), so two identical tracks in a queue are told apart: its index in the
    /// `PlayRequest`'s items, where the items of a later `setUpcoming` count on from the current
    /// item's (the first is its index + 1), and an item dropped because it could not load keeps
    /// the others' indices as they were. Nil in `idle`, `finished` and `failed`.
    public var currentItemIndex: Int? {
        audibleIndex.map(itemIndex(at:))
    }

    /// The front end's index of the queue entry at `position`.
    func itemIndex(at position: Int) -> Int {
        itemIndices.indices.contains(position) ? itemIndices[position] : position
    }

    mutating func setUpcoming(_ change: UpcomingChange) -> [PlayerEffect] {
        guard let current = audibleIndex else { return [] }
        let preloaded = next.flatMap { queue.indices.contains($0.index) ? queue[$0.index] : nil }
        let armedFade = next.map { crossfadeSpec(into: $0.index, skipping: $0.skipRequested) }
        let item = queue[current]
        let edited = QueueItem(track: item.track, crossfadeIntoNext: change.crossfadeFromCurrent, startPosition: item.startPosition)
        let currentNumber = itemIndex(at: current)
        itemIndices = (0...current).map { itemIndex(at: $0) } + change.items.indices.map { currentNumber + 1 + $0 }
        queue = Array(queue[..<current]) + [edited] + change.items

        switch state {
        case .preparingCrossfade(let currentTrack, _):
            guard var incoming = next else { return [] }
            if let preloaded, let first = change.items.first, first.track.id == preloaded.track.id, first.loadStart == preloaded.loadStart {
                // The next item loading or loaded is still the next one: keep it. A crossfade
                // armed on an exact frame is armed again if its length or curve changed.
                incoming.index = current + 1
                next = incoming
                guard incoming.ready, incoming.crossfadeScheduled, let armedFade,
                    crossfadeSpec(into: incoming.index, skipping: incoming.skipRequested) != armedFade
                else { return [] }
                return scheduleCrossfade(now: incoming.skipRequested)
            }
            // Not audible yet, and no longer what comes next: drop it (with an armed crossfade).
            if pendingLoad?.purpose == .next { pendingLoad = nil }
            next = nil
            state = .playing(track: currentTrack)
            let dropped: [PlayerEffect] = [.unload(activeDeck.opposite)]
            // A skip asked for goes on to the new next item (or ends, when there is none).
            if incoming.skipRequested { return dropped + skip() }
            return dropped + preloadIfDue()
        case .playing:
            return preloadIfDue()
        default:
            // Nothing is loading for the next item (or it already sounds): the queue is enough.
            return []
        }
    }

    /// Where, in the current item's media time, the next item starts loading: early enough to be
    /// ready when the crossfade into it begins.
    func preloadPoint(into nextIndex: Int, duration: TimeInterval) -> TimeInterval {
        duration - crossfadeSpec(into: nextIndex, skipping: false).duration - configuration.preloadLead
    }

    /// Loads the next item now when the current one is already past its preload point (which
    /// otherwise the next position report would find).
    mutating func preloadIfDue() -> [PlayerEffect] {
        guard case .playing(let track) = state, !track.isLive, let duration, let nextIndex = automaticNextIndex,
            position >= preloadPoint(into: nextIndex, duration: duration)
        else { return [] }
        return prepareNext(nextIndex, skipping: false)
    }
}
