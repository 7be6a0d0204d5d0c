import Library

extension LibraryStateMachine {
    /// `u` on an episode, a station or a session: puts it at the end of the queue (an alert says
    /// when it is there already).
    mutating func enqueueSelected() -> [LibraryEffect] {
        let target: QueueTarget? = switch model.selectedEntry {
        case .episode(let record)?: .episode(record.id)
        case .station(let record)?: .station(record.id)
        case .session(let record)?: .session(record.id)
        default: nil
        }
        return target.map { [.change(.enqueue($0))] } ?? []
    }

    /// `K` / `J` on the Queue tab: the selected entry one place up or down, the selection with it
    /// (a move keeps the list's length, so the list read again afterwards keeps the selection).
    mutating func moveSelectedEntry(by step: Int) -> [LibraryEffect] {
        guard case .queued(let entry)? = model.selectedEntry else { return [] }
        model.selection = max(0, min(model.list.items.count - 1, model.selection + step))
        model.changed()
        return [.change(.moveInQueue(entryID: entry.id, to: entry.index + step))]
    }

    /// `X` on the Queue tab: the entry leaves the queue (what it names stays in the library).
    mutating func removeSelectedEntry() -> [LibraryEffect] {
        guard case .queued(let entry)? = model.selectedEntry else { return [] }
        return [.change(.dequeue(entryID: entry.id))]
    }

    /// `m` on an episode: played, or unplayed again (its place kept for a new listen from the start).
    mutating func markSelectedPlayed() -> [LibraryEffect] {
        guard case .episode(let record)? = model.selectedEntry else { return [] }
        return [.change(.markPlayed(episodeID: record.id, !record.played))]
    }

    /// `M` on a podcast, or in its Episodes list: every episode of it played.
    mutating func markPodcastPlayed() -> [LibraryEffect] {
        let podcast: Int64? = switch (model.selectedEntry, model.episodesOf?.entry) {
        case (_, .podcast(let podcast)?): podcast.id
        case (.podcast(let podcast)?, _): podcast.id
        default: nil
        }
        return podcast.map { [.change(.markAllPlayed(podcastID: $0))] } ?? []
    }
}
