import PlayerCore

/// Chapters: a file's own and its feed's, kept per item on a deck and published as they change.
extension AudioPlayer {
    /// The current item's chapters when they differ from those told (a new item, or chapters
    /// that arrived), with the chapter its position is in.
    func publishChapters() {
        let current = machine.state.currentTrack?.id
        guard let change = chapters.listChange(current: current) else { return }
        if chapters.clearPosition() { continuation.yield(.notice(.chapter(nil), audioTime: audioTime)) }
        continuation.yield(.notice(.chapters(change), audioTime: audioTime))
        if let last = lastPosition, last.trackID == current, let moved = chapters.positionChange(at: last.seconds) {
            continuation.yield(.notice(.chapter(moved), audioTime: audioTime))
        }
    }

    /// Chapters learned for an item (its file's, or its feed's document).
    func learned(_ list: ChapterList) {
        guard deckTracks.values.contains(list.trackID) else { return }
        log.chapters(list)
        chapters.learned(list)
        publishChapters()
    }

    /// Asks the chapter source for a loading item's feed chapters, once per item: an episode's
    /// (its feed may write them in, or name a document) or any item that names a document.
    func askChapters(for track: Track) {
        guard let source = chapterSource, track.kind == .episode || track.chaptersURL != nil, chapters.asks(track.id) else { return }
        let log = self.log
        Task(executorPreference: executor) { [weak self] in
            switch await source.chapters(for: track) {
            case .success(let list)?: await self?.learned(list)
            case .failure(let error)?: log.chaptersUnavailable(error)
            case nil: break
            }
        }
    }
}
