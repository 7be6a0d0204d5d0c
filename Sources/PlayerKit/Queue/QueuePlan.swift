import Foundation
import Library
import PlayerCore

/// What playing the listener's queue means: one request with every entry in order (so the player
/// crossfades between them with the listener's setting and `next`, MPRIS's Next included, moves
/// along it), each episode from its saved place (from disk when it is downloaded), and which
/// queue entry each track belongs to, for `QueueRecorder`.
package struct QueuePlan: Sendable {
    /// Nil when nothing in the queue can play.
    package var request: PlayRequest?
    /// The queue entry each track of the request belongs to, by track id (a session's stages all
    /// belong to the session).
    package var targets: [String: QueueTarget]
    /// Entries that cannot play (an episode without audio, a session file gone), with why: they
    /// are left out of the request and stay in the queue for the listener to see.
    package var skipped: [(entry: QueueEntryRecord, error: PlaybackError)]
}

extension LibraryContext {
    /// The queue as one request, starting with the entry `from` (its id; the first when nil).
    package func queueToPlay(from entryID: Int64? = nil) throws(PlaybackError) -> QueuePlan {
        var entries = try store.queue()
        if let entryID, let start = entries.firstIndex(where: { $0.id == entryID }) { entries.removeFirst(start) }
        var items: [QueueItem] = []
        var targets: [String: QueueTarget] = [:]
        var skipped: [(QueueEntryRecord, PlaybackError)] = []
        for entry in entries {
            do throws(PlaybackError) {
                let entryItems = try queueItems(for: entry.target)
                for item in entryItems { targets[item.track.id] = entry.target }
                items += entryItems
            } catch {
                skipped.append((entry, error))
            }
        }
        let request = PlayRequest(items: items, startPosition: items.first?.startPosition ?? 0)
        return QueuePlan(request: request, targets: targets, skipped: skipped)
    }

    private func queueItems(for target: QueueTarget) throws(PlaybackError) -> [QueueItem] {
        switch target {
        case .episode(let id):
            switch try episodeToPlay(id: id) {
            case .play(let request): return request.items.map { QueueItem(track: $0.track, startPosition: request.startPosition) }
            case .cannotPlay(let error): throw error
            }
        case .station(let id):
            guard let station = try store.stations().first(where: { $0.id == id }) else {
                throw PlaybackError(.notInLibrary, underlying: "no station with that id")
            }
            return [QueueItem(track: station.station.track)]
        case .session(let id):
            guard let session = try store.sessions().first(where: { $0.id == id }) else {
                throw PlaybackError(.notInLibrary, underlying: "no session with that id")
            }
            return try SessionLoader.request(for: session.path).items
        }
    }
}
