import Foundation
import Library
import PlayerCore
import PlayerKit

/// What playing the listener's queue means: one request with the entries in order (so the player
/// crossfades between them with the listener's setting and `next`, MPRIS's Next included, moves
/// along it), each episode from its saved place (from disk when it is downloaded), and which
/// queue entry each track belongs to, for `QueueRecorder`.
///
/// A session with layers is a request of its own: its bed and bells start with its first stage
/// and close after its last, never under another entry. The request stops short of it (or is
/// only it), and `continuesFrom` names where the queue goes on once the request has played to
/// its end (`RequestEndWatch`).
package struct QueuePlan: Sendable {
    /// Nil when nothing in the queue can play.
    package var request: PlayRequest?
    /// The queue entry each track of the request belongs to, by track id (a session's stages all
    /// belong to the session).
    package var targets: [String: QueueTarget]
    /// Entries that cannot play (an episode without audio, a session file gone), with why: they
    /// are left out of the request and stay in the queue for the listener to see.
    package var skipped: [(entry: QueueEntryRecord, error: PlaybackError)]
    /// The entry the queue goes on with after the request's end; nil when the request reaches
    /// the queue's end.
    package var continuesFrom: Int64?

    package init(
        request: PlayRequest?, targets: [String: QueueTarget], skipped: [(entry: QueueEntryRecord, error: PlaybackError)],
        continuesFrom: Int64? = nil
    ) {
        self.request = request
        self.targets = targets
        self.skipped = skipped
        self.continuesFrom = continuesFrom
    }
}

extension LibraryContext {
    /// The queue as one request, starting with the entry `from` (its id; the first when nil).
    package func queueToPlay(from entryID: Int64? = nil) throws(PlaybackError) -> QueuePlan {
        var entries = try store.queue()
        if let entryID, let start = entries.firstIndex(where: { $0.id == entryID }) { entries.removeFirst(start) }
        var items: [QueueItem] = []
        var layers: LayerPlan?
        var targets: [String: QueueTarget] = [:]
        var skipped: [(QueueEntryRecord, PlaybackError)] = []
        // Which entries the request holds is the queue rule's (a session with layers plays
        // alone); whether an entry has layers is known only once it is read, so each is offered
        // as it is read, and nothing past the request is read at all.
        var held = QueueCursor<Int64>.Request()
        for entry in entries {
            do throws(PlaybackError) {
                let part = try queuePart(for: entry.target)
                guard held.offer(QueueCursor.Entry(id: entry.id, playsAlone: part.layers != nil)) else { break }
                for item in part.items { targets[item.track.id] = entry.target }
                items += part.items
                layers = part.layers
            } catch {
                skipped.append((entry, error))
            }
        }
        let request = PlayRequest(items: items, startPosition: items.first?.startPosition ?? 0, layers: layers)
        return QueuePlan(request: request, targets: targets, skipped: skipped, continuesFrom: held.continuesFrom)
    }

    /// An entry's items, and its layers when it is a session with a bed or bells.
    private func queuePart(for target: QueueTarget) throws(PlaybackError) -> (items: [QueueItem], layers: LayerPlan?) {
        switch target {
        case .episode(let id):
            switch try episodeToPlay(id: id) {
            case .play(let request): return (request.items.map { QueueItem(track: $0.track, startPosition: request.startPosition) }, nil)
            case .cannotPlay(let error): throw error
            }
        case .station(let id):
            guard let station = try store.stations().first(where: { $0.id == id }) else {
                throw PlaybackError(.notInLibrary, underlying: "no station with that id")
            }
            return ([QueueItem(track: station.station.track)], nil)
        case .session(let id):
            guard let session = try store.sessions().first(where: { $0.id == id }) else {
                throw PlaybackError(.notInLibrary, underlying: "no session with that id")
            }
            let request = try SessionLoader.request(for: session.path)
            return (request.items, request.layers)
        }
    }
}
