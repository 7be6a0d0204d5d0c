import PlayerCore
import Presentation
import TerminalUI

extension LibraryStateMachine {
    /// What a key does. The help, an alert, a question and the line being typed take every key
    /// while they are shown; then Esc and Backspace go back, Tab moves on, and the rest is read
    /// through the key bindings, on the library or on Now Playing.
    mutating func press(_ key: Key) -> [LibraryEffect] {
        // A note lasts until the next key.
        if model.notice != nil {
            model.notice = nil
            model.changed()
        }
        if model.helpShown {
            model.helpShown = false
            model.changed()
            return []
        }
        if model.alert != nil {
            if key == .enter || key == .escape || bindings.action(for: key) == .dismiss {
                model.alert = nil
                model.changed()
            }
            return []
        }
        if model.confirmation != nil { return answerConfirmation(yes: key == .character("y") || key == .character("Y")) }
        if model.prompt != nil || model.typingSearch { return edit(key) }
        if key == .escape || key == .backspace { return back() }
        if key == .tab { return switchTab(by: 1) }
        guard let action = bindings.action(for: key) else { return [] }
        let open = model.nowPlayingOpen
        let state = model.player.state
        switch action {
        case .quit:
            quit()
        case .help:
            model.helpShown = true
            model.changed()
        case .up where open && model.player.showsTranscript, .down where open && model.player.showsTranscript:
            model.player.moveTranscriptSelection(by: action == .up ? -1 : 1)
            model.changed()
        case .up, .down:
            model.moveSelection(by: action == .up ? -1 : 1)
        case .seekBackward where !open, .seekForward where !open:
            return switchTab(by: action == .seekForward ? 1 : -1)
        case .play where open && model.player.showsTranscript:
            // Enter on a line of the transcript: play from where it is said.
            guard let start = model.player.takeTranscriptSelection(), state.allows(.seek) else { return [] }
            model.changed()
            return [.send(.seek(to: start))]
        case .play:
            if open { return [] }
            return openSelection()
        case .search where !open && model.tab == .stations && model.directoryQuery == nil && model.list.items.isEmpty:
            // An empty station list has nothing to filter: `/` finds stations in the directory.
            return openDirectoryPrompt()
        case .search where !open:
            model.search = ""
            model.typingSearch = true
            model.changed()
        case .directory where !open:
            return openDirectoryPrompt()
        case .like:
            return like(onNowPlaying: open)
        case .download where !open:
            return downloadSelected()
        case .enqueue where !open && model.tab == .music, .add where !open && model.tab == .music:
            return enqueueMusic()
        case .enqueue where !open:
            return enqueueSelected()
        case .moveUp where !open, .moveDown where !open:
            return moveSelectedEntry(by: action == .moveUp ? -1 : 1)
        case .remove where !open && model.tab == .queue:
            return removeSelectedEntry()
        case .remove where !open:
            askToRemoveSelected()
        case .undo where !open:
            return undoRemoval()
        case .rename where !open:
            askForNewName()
        case .markPlayed where !open:
            return markSelectedPlayed()
        case .soundbite where !open:
            return playSelectedSoundbite()
        case .markAllPlayed where !open:
            return markPodcastPlayed()
        case .chapters where open:
            model.player.toggleChapters()
            model.changed()
        case .transcript where open:
            model.player.toggleTranscript()
            model.changed()
        case .refreshAll where !open && model.tab == .podcasts:
            return refreshPodcasts()
        case .refreshAll where !open && model.tab == .music:
            return updateMusicIndex()
        case .add where !open && model.directoryQuery != nil:
            return keepFoundStation()
        case .add where !open:
            askForNewItem()
        case .retry where model.list.error != nil && !open && state.name != .failed:
            if let query = model.directoryQuery { return findStations(query) }
            return [.reload]
        case .dismiss where !state.allows(.cancelRetry):
            model.player.dismissInlineError()
            model.changed()
        default:
            // A key that stands for a player command (space, s, n, r, arrows on Now Playing), as the
            // state reads it.
            let player = model.player
            guard let intent = action.command?.intent(
                in: state, position: player.position, loudness: player.loudness ?? .off, chapters: player.chapters)
            else { return [] }
            return [.send(intent)]
        }
        return []
    }

    /// `a`: the prompt for a station's name and address, a feed's address, or a timer's length
    /// (Sessions).
    private mutating func askForNewItem() {
        model.promptPurpose = .add
        switch model.tab {
        case .stations: model.prompt = (TerminalStrings.prompt(.station, in: language), "")
        case .podcasts where model.episodesOf == nil: model.prompt = (TerminalStrings.prompt(.feed, in: language), "")
        case .sessions: model.prompt = (TerminalStrings.prompt(.timer, in: language), "")
        default: return
        }
        model.changed()
    }

    /// `e` on a station of the library: the prompt starts with its name.
    private mutating func askForNewName() {
        guard case .station(let record)? = model.selectedEntry, model.directoryQuery == nil else { return }
        model.promptPurpose = .rename(record.id)
        model.prompt = (TerminalStrings.prompt(.rename, in: language), record.name)
        model.changed()
    }
}
