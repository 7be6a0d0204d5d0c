import PlayerCore
import Synchronization

/// Folds each deck's connection facts into what the state machine needs, so the actor never falls
/// behind a fast source: a live stream (or a render reading faster than the network) runs dry and
/// receives again between most packets, and queuing every such fact could let a backlog make a
/// flowing connection look stalled. Per deck it keeps whether the source is dry, and since when the
/// current dry spell began, plus every drop in order; one wake-up per deck waits in the actor's
/// queue at most, and the actor takes the latest news when it comes to it.
final class ConnectionMailbox: Sendable {
    enum Flow: Sendable, Equatable {
        case dry(since: PlayerTime)
        case receiving(at: PlayerTime)
    }

    struct News: Sendable {
        let load: LoadID
        var drops: [(PlaybackError, PlayerTime)] = []
        var flow: Flow?
        /// The latest count of loads of a live playlist that brought no new segment, and when.
        var unchangedPlaylist: (loads: Int, at: PlayerTime)?
    }

    private struct Box {
        var news: News
        /// A wake-up for this deck is queued and not yet taken.
        var wakeUpQueued = false
        /// The start of the current dry spell, kept across deliveries.
        var drySince: PlayerTime?
    }

    private let boxes = Mutex<[DeckID: Box]>([:])

    /// A new load on `deck`: news of the previous one is forgotten.
    func begin(_ deck: DeckID, load: LoadID) {
        boxes.withLock { $0[deck] = Box(news: News(load: load)) }
    }

    /// Records `fact`; true when the caller must queue a wake-up for `deck`.
    func post(_ fact: ConnectionFact, deck: DeckID, load: LoadID, at: PlayerTime) -> Bool {
        boxes.withLock { boxes in
            guard var box = boxes[deck], box.news.load == load else { return false }
            switch fact {
            case .dry:
                let since = box.drySince ?? at
                box.drySince = since
                box.news.flow = .dry(since: since)
            case .receiving:
                box.drySince = nil
                box.news.flow = .receiving(at: at)
                // A new segment came: a count of unchanged loads before it says nothing now.
                box.news.unchangedPlaylist = nil
            case .dropped(let cause):
                box.drySince = nil
                box.news.flow = nil
                box.news.drops.append((cause, at))
            case .playlistUnchanged(let loads):
                box.news.unchangedPlaylist = (loads, at)
            }
            let wake = !box.wakeUpQueued
            box.wakeUpQueued = true
            boxes[deck] = box
            return wake
        }
    }

    /// The news since the last call, or nil when there is none.
    func take(_ deck: DeckID) -> News? {
        boxes.withLock { boxes in
            guard var box = boxes[deck] else { return nil }
            box.wakeUpQueued = false
            let news = box.news
            box.news = News(load: news.load)
            boxes[deck] = box
            return news.drops.isEmpty && news.flow == nil && news.unchangedPlaylist == nil ? nil : news
        }
    }
}
