import AudioEngine
import Foundation
import Logging
import Library
import MPRIS
import PlayerCore
import PlayerKit
import Presentation
import Services
import Streaming
import Synchronization
import TerminalUI

/// The library screens, and Now Playing for what is started from them. Like
/// `NowPlayingController`, one thread owns the terminal (reads a key, redraws when something
/// changed, 20 times a second at most); the player's updates and the library's answers change a
/// `LibraryModel` under a lock. Keys arrive through `handle(_:)` and frames leave through
/// `frame(tick:width:height:)`, so the controller runs the same without a terminal.
public final class LibraryController: Sendable {
    private let library: LibraryContext
    private let output: OutputChoice?
    private let language: Language
    private let bindings: KeyBindings
    private let logger: Logger
    private let observer: (@Sendable (PlayerUpdate) -> Void)?
    let model = Mutex(LibraryModel())
    private let quit = Mutex(false)
    private let session = Mutex<PlaybackSession?>(nil)
    /// The start of the player, shared by every Enter that comes while it runs.
    private let starting = Mutex<Task<AudioPlayer, any Error>?>(nil)
    /// Episodes being downloaded from this screen.
    private let downloading = Mutex<Set<Int64>>([])
    /// The task that feeds the player's updates to the model and the episode recorder.
    private let updates = Mutex<Task<Void, Never>?>(nil)
    /// Said on stderr once the screen is gone (writing while curses draws would garble it).
    private let laterWarnings = Mutex<[String]>([])
    private let recorder = Mutex<(@Sendable (PlayerUpdate) -> Void)?>(nil)
    /// Keeps the volume and speed the listener sets (the speed per podcast while one of its episodes plays).
    private let listeningSettings: ListeningSettings
    /// One monitor for the offline banner and the player's reconnect pausing.
    private let connectivity = ConnectivityMonitor()
    /// The station directory, or why it cannot be asked (its configured address is not http(s)).
    private let directory: Result<StationDirectory, PlaybackError>
    /// Keeps the titles heard on stations, and likes the one playing.
    private let history: TitleHistoryRecorder
    /// True while `R` refreshes every podcast, so a second press does not start a second batch.
    private let refreshingPodcasts = Mutex(false)

    /// - Parameters:
    ///   - output: where sound goes; nil chooses PulseAudio when the first item plays.
    ///   - observer: sees every update of the player, in order.
    ///   - directory: the station directory; nil: the one `DirectorySettings` configures.
    public init(
        library: LibraryContext, output: OutputChoice?, language: Language, bindings: KeyBindings, logger: Logger,
        observer: (@Sendable (PlayerUpdate) -> Void)? = nil, directory: StationDirectory? = nil
    ) {
        self.observer = observer
        self.library = library
        listeningSettings = ListeningSettings(store: library.store, logger: logger)
        history = TitleHistoryRecorder(store: library.store, logger: logger)
        self.output = output
        self.language = language
        self.bindings = bindings
        self.logger = logger
        if let directory {
            self.directory = .success(directory)
        } else {
            do throws(PlaybackError) {
                self.directory = .success(try DirectorySettings.directory(network: library.network, logger: logger))
            } catch {
                self.directory = .failure(error)
            }
        }
    }

    /// True once the listener asked to leave (`q`, MPRIS Quit, a signal).
    var isQuitting: Bool { quit.withLock { $0 } }

    /// Runs until `q`. The terminal loop gets a thread of its own: the calling (main) thread and
    /// the cooperative pool stay free for the player and the library.
    public func run() async throws(TerminalDisplayError) {
        let display = try TerminalDisplay()
        TerminalRestore.install(display)
        load()
        let network = Task { [self] in
            for await online in await connectivity.updates() {
                self.model.withLock { model in
                    model.player.networkChanged(online: online)
                    model.changed()
                }
            }
        }
        defer { network.cancel() }
        // Ctrl-C, a kill and a closed terminal end the loop like q, so the terminal is restored.
        PlaybackSession.onSignals { [self] in self.quit.withLock { $0 = true } }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let thread = Thread { [self] in
                self.loop(display)
                done.resume()
            }
            thread.name = "tonearm-terminal"
            thread.start()
        }
        display.end()
        for warning in laterWarnings.withLock({ $0 }) { FileHandle.standardError.write(Data("tonearm: \(warning)\n".utf8)) }
        await finish()
    }

    /// Fills the first tab from the library.
    func load() {
        model.withLock { $0.reload(library.store, analytics: library.analytics, language: language) }
    }

    /// Stops what plays (an episode's place is saved), then waits until every update (the save
    /// among them) has reached the recorder and every error is recorded.
    func finish() async {
        commitPendingRemoval()
        guard let session = session.withLock({ $0 }) else { return }
        await session.finish()
        await updates.withLock { $0 }?.value
    }

    private func loop(_ display: TerminalDisplay) {
        TerminalLoop.run(
            display, shouldQuit: { quit.withLock { $0 } }, onKey: handle,
            status: {
                model.withLock {
                    TerminalLoop.Status(
                        version: $0.version, moving: $0.list.isLoading || $0.player.state.showsLoading || $0.player.state.name == .reconnecting)
                }
            },
            frame: frame)
    }

    func frame(tick: Int, width: Int, height: Int) -> Canvas {
        model.withLock { model in
            var canvas: Canvas
            if model.nowPlayingOpen {
                canvas = model.player.screen(language: language, bindings: bindings, tick: tick).render(width: width, height: height)
            } else {
                canvas = model.screen(language: language, bindings: bindings, tick: tick).render(width: width, height: height)
            }
            if model.helpShown { canvas.drawHelp(bindings, language: language) }
            return canvas
        }
    }

    // MARK: Keys

    func handle(_ key: Key) {
        var typing = false
        var directorySearch: String?
        model.withLock { model in
            if model.helpShown {
                model.helpShown = false
                model.changed()
                typing = true
            } else if model.alert != nil {
                if key == .enter || key == .escape || bindings.action(for: key) == .dismiss { model.alert = nil; model.changed() }
                typing = true
            } else if model.confirmation != nil {
                typing = true
                answerConfirmation(&model, yes: key == .character("y") || key == .character("Y"))
            } else if model.prompt != nil || model.typingSearch {
                typing = true
                directorySearch = edit(&model, key)
            }
        }
        if let directorySearch { findStations(directorySearch) }
        if typing { return }
        if key == .escape || key == .backspace { return back() }
        if key == .tab { return switchTab(by: 1) }
        guard let action = bindings.action(for: key) else { return }
        let (open, state) = model.withLock { ($0.nowPlayingOpen, $0.player.state) }
        switch action {
        case .quit:
            quit.withLock { $0 = true }
        case .help:
            model.withLock { $0.helpShown = true; $0.changed() }
        case .up, .down:
            model.withLock { $0.moveSelection(by: action == .up ? -1 : 1) }
        case .seekBackward where !open, .seekForward where !open:
            switchTab(by: action == .seekForward ? 1 : -1)
        case .play:
            if open { return }
            openSelection()
        case .search where !open && model.withLock({ $0.tab == .stations && $0.directoryQuery == nil && $0.list.items.isEmpty }):
            // An empty station list has nothing to filter: `/` finds stations in the directory.
            openDirectoryPrompt()
        case .search where !open:
            model.withLock { $0.search = ""; $0.typingSearch = true; $0.changed() }
        case .directory where !open:
            openDirectoryPrompt()
        case .like:
            like(onNowPlaying: open)
        case .download where !open:
            downloadSelected()
        case .enqueue where !open:
            enqueueSelected()
        case .moveUp where !open, .moveDown where !open:
            moveSelectedEntry(by: action == .moveUp ? -1 : 1)
        case .remove where !open && model.withLock({ $0.tab == .queue }):
            removeSelectedEntry()
        case .remove where !open:
            askToRemoveSelected()
        case .undo where !open:
            undoRemoval()
        case .rename where !open:
            model.withLock { model in
                guard case .station(let record)? = model.selectedEntry, model.directoryQuery == nil else { return }
                model.promptPurpose = .rename(record.id)
                model.prompt = (TerminalStrings.prompt(.rename, in: language), record.name)
                model.changed()
            }
        case .markPlayed where !open:
            markSelectedPlayed()
        case .markAllPlayed where !open:
            markPodcastPlayed()
        case .chapters where open:
            model.withLock { $0.player.toggleChapters(); $0.changed() }
        case .refreshAll where !open && model.withLock({ $0.tab == .podcasts }):
            refreshPodcasts()
        case .add where !open && model.withLock({ $0.directoryQuery != nil }):
            keepFoundStation()
        case .add where !open:
            model.withLock { model in
                model.promptPurpose = .add
                switch model.tab {
                case .stations: model.prompt = (TerminalStrings.prompt(.station, in: language), "")
                case .podcasts where model.episodesOf == nil: model.prompt = (TerminalStrings.prompt(.feed, in: language), "")
                default: return
                }
                model.changed()
            }
        case .retry where model.withLock({ $0.list.error != nil }) && !open && state.name != .failed:
            if let query = model.withLock({ $0.directoryQuery }) { findStations(query) } else { load() }
        case .dismiss where !state.allows(.cancelRetry):
            model.withLock { $0.player.dismissInlineError(); $0.changed() }
        default:
            send(action, state: state)
        }
    }

    /// Typing into the search line or the prompt: Enter ends it, Esc cancels, Backspace deletes.
    /// Returns the text to find in the directory when Enter ended the directory's prompt.
    private func edit(_ model: inout LibraryModel, _ key: Key) -> String? {
        switch key {
        case .enter:
            if let prompt = model.prompt {
                model.prompt = nil
                if model.promptPurpose == .findStations {
                    model.promptPurpose = .add
                    model.typingSearch = false
                    return prompt.text
                }
                submit(prompt.text, into: &model)
            }
            model.typingSearch = false
        case .escape:
            model.prompt = nil
            model.promptPurpose = .add
            model.typingSearch = false
            model.search = nil
        case .backspace:
            if let prompt = model.prompt { model.prompt = (prompt.label, String(prompt.text.dropLast())) } else { model.search = String((model.search ?? "").dropLast()) }
        case .character(let c):
            if model.prompt != nil {
                model.prompt?.text.append(c)
            } else {
                // A new search starts at its first match.
                model.search = (model.search ?? "") + String(c)
                model.selection = 0
            }
        default:
            return nil
        }
        model.changed()
        return nil
    }

    private func back() {
        model.withLock { model in
            if model.nowPlayingOpen {
                model.nowPlayingOpen = false
            } else if model.search != nil {
                model.search = nil
            } else if model.directoryQuery != nil {
                model.directoryQuery = nil
                model.entries = []
                model.selection = 0
                model.list = .initial
                model.reload(library.store, analytics: library.analytics, language: language)
            } else if model.episodesOf != nil {
                model.episodesOf = nil
                model.selection = 0
                model.reload(library.store, analytics: library.analytics, language: language)
            }
            model.changed()
        }
    }

    private func switchTab(by step: Int) {
        model.withLock { model in
            let all = LibraryScreen.Tab.allCases
            model.tab = all[(all.firstIndex(of: model.tab)! + step + all.count) % all.count]
            model.episodesOf = nil
            model.directoryQuery = nil
            model.search = nil
            model.selection = 0
            model.list = .initial
            model.reload(library.store, analytics: library.analytics, language: language)
        }
        if model.withLock({ $0.tab == .diagnostics }) {
            Task { [library] in
                let summary = try? await library.analytics.summary()
                let retries = try? await library.retryStatistics.persistedSummary()
                self.model.withLock { $0.diagnostics = summary; $0.retries = retries; $0.changed() }
            }
        }
    }

    /// Enter: a podcast opens its episodes; a station, an episode or a session plays.
    private func openSelection() {
        let entry = model.withLock { $0.selectedEntry }
        guard let entry else { return }
        switch entry {
        case .podcast(let podcast):
            model.withLock { model in
                model.episodesOf = (entry, podcast.title)
                model.selection = 0
                model.list = .initial
                model.reload(library.store, analytics: library.analytics, language: language)
            }
        case .station(let record):
            // Counted through this screen's directory (the one it searches), in the background.
            if let id = record.directoryID, case .success(let directory) = directory { Task { await directory.countClick(id: id) } }
            play(.play(PlayRequest(track: record.station.track)), episode: nil, operation: "playStation")
        case .found(let station):
            if case .success(let directory) = directory { Task { await directory.countClick(id: station.id) } }
            let track = Station(id: "directory-\(station.id)", name: station.name, url: station.streamURL, genre: station.tags.first).track
            play(.play(PlayRequest(track: track)), episode: nil, operation: "playStation")
        case .episode(let record):
            do throws(PlaybackError) {
                play(try library.episodeToPlay(id: record.id), episode: record.id, operation: "playEpisode")
            } catch {
                // A library that cannot be read is a failure of the episode, shown in its error view.
                play(.cannotPlay(error), episode: record.id, operation: "playEpisode")
            }
        case .heard, .favourite:
            return
        case .session(let record):
            do throws(PlaybackError) {
                let request = try SessionLoader.request(for: record.path)
                play(.play(request), episode: nil, operation: "playSession")
            } catch {
                fail(error, operation: "playSession")
            }
        case .queued(let entry):
            // The queue from this entry on, in order.
            do throws(PlaybackError) {
                let plan = try library.queueToPlay(from: entry.id)
                if let (_, error) = plan.skipped.first {
                    model.withLock { model in
                        model.alert = error
                        model.alertOperation = .playback
                    }
                }
                guard let request = plan.request else { return }
                play(.play(request), episode: nil, queue: plan, operation: "playQueue")
            } catch {
                fail(error, operation: "playQueue")
            }
        }
    }

    // MARK: Removing, with undo

    /// `X` on a station, a podcast (in the podcast list) or a session: asks first, naming it.
    private func askToRemoveSelected() {
        model.withLock { model in
            guard model.directoryQuery == nil, model.episodesOf == nil, let entry = model.selectedEntry, let name = entry.removableName else { return }
            model.confirmation = (TerminalStrings.confirmRemove(name, in: language), entry)
            model.changed()
        }
    }

    /// y removes what the question named: it leaves the lists at once, and the library when the
    /// screen closes or at the next removal, so `U` can still bring it back whole. Any other key
    /// keeps it.
    private func answerConfirmation(_ model: inout LibraryModel, yes: Bool) {
        guard let asked = model.confirmation else { return }
        model.confirmation = nil
        if yes, let name = asked.entry.removableName {
            if let earlier = model.pendingRemoval { commitRemoval(earlier.entry) }
            model.pendingRemoval = (asked.entry, name)
            logger.info("library item removed (undo possible until the screen closes)", metadata: ["kind": .string(Self.kind(asked.entry))])
            model.reload(library.store, analytics: library.analytics, language: language)
        }
        model.changed()
    }

    /// `U`: the last removal comes back.
    private func undoRemoval() {
        model.withLock { model in
            guard model.pendingRemoval != nil else { return }
            model.pendingRemoval = nil
            model.reload(library.store, analytics: library.analytics, language: language)
        }
    }

    /// Removes from the library what the listener removed on the screen (nothing is left half-done:
    /// each is one transaction; a podcast's downloaded files go with it).
    private func commitRemoval(_ entry: LibraryEntry) {
        do throws(PlaybackError) {
            switch entry {
            case .station(let record): try library.store.removeStation(named: record.name)
            case .podcast(let record):
                try library.store.removePodcast(id: record.id)
                library.downloads.removeOrphans()
            case .session(let record): try library.store.removeSession(named: record.name)
            default: return
            }
        } catch {
            Task { [library] in await library.analytics.record(error, operation: "removeFromLibrary") }
        }
    }

    /// Carries out a removal still waiting for its undo (the screen is closing).
    func commitPendingRemoval() {
        let pending = model.withLock { model -> LibraryEntry? in
            defer { model.pendingRemoval = nil }
            return model.pendingRemoval?.entry
        }
        if let pending { commitRemoval(pending) }
    }

    private static func kind(_ entry: LibraryEntry) -> String {
        switch entry {
        case .station: "station"
        case .podcast: "podcast"
        case .session: "session"
        default: "other"
        }
    }

    // MARK: The queue and played marks

    /// `u` on an episode, a station or a session: puts it at the end of the queue (an alert says
    /// when it is there already).
    private func enqueueSelected() {
        let target: QueueTarget? = switch model.withLock({ $0.selectedEntry }) {
        case .episode(let record)?: .episode(record.id)
        case .station(let record)?: .station(record.id)
        case .session(let record)?: .session(record.id)
        default: nil
        }
        guard let target else { return }
        change("enqueue") { () throws(PlaybackError) in try library.store.enqueue(target) }
    }

    /// `K` / `J` on the Queue tab: the selected entry one place up or down, the selection with it.
    private func moveSelectedEntry(by step: Int) {
        guard case .queued(let entry)? = model.withLock({ $0.selectedEntry }) else { return }
        change("moveInQueue") { () throws(PlaybackError) in try library.store.moveInQueue(entryID: entry.id, to: entry.index + step) }
        model.withLock { model in
            model.selection = max(0, min(model.list.items.count - 1, model.selection + step))
            model.changed()
        }
    }

    /// `X` on the Queue tab: the entry leaves the queue (what it names stays in the library).
    private func removeSelectedEntry() {
        guard case .queued(let entry)? = model.withLock({ $0.selectedEntry }) else { return }
        change("dequeue") { () throws(PlaybackError) in try library.store.removeFromQueue(entryID: entry.id) }
    }

    /// `m` on an episode: played, or unplayed again (its place kept for a new listen from the start).
    private func markSelectedPlayed() {
        guard case .episode(let record)? = model.withLock({ $0.selectedEntry }) else { return }
        change("markPlayed") { () throws(PlaybackError) in try library.store.markPlayed(episodeID: record.id, !record.played) }
    }

    /// `M` on a podcast, or in its Episodes list: every episode of it played.
    private func markPodcastPlayed() {
        let podcast: Int64? = model.withLock { model in
            switch (model.selectedEntry, model.episodesOf?.entry) {
            case (_, .podcast(let podcast)?): podcast.id
            case (.podcast(let podcast)?, _): podcast.id
            default: nil
            }
        }
        guard let podcast else { return }
        change("markPlayed") { () throws(PlaybackError) in try library.store.markAllPlayed(podcastID: podcast) }
    }

    /// Runs a change of the library, then shows the list again; a failure is an alert.
    private func change(_ operation: AnalyticsIdentifier, _ body: () throws(PlaybackError) -> Void) {
        do throws(PlaybackError) {
            try body()
            model.withLock { $0.reload(library.store, analytics: library.analytics, language: language) }
        } catch {
            Task { [library] in await library.analytics.record(error, operation: operation) }
            model.withLock { model in
                model.alert = error
                model.alertOperation = .playback
                model.changed()
            }
        }
    }

    /// Reloads `tab` when it is the one shown.
    private func refreshTab(_ tab: LibraryScreen.Tab) {
        model.withLock { model in
            guard model.tab == tab else { return }
            model.reload(library.store, analytics: library.analytics, language: language)
        }
    }

    // MARK: Downloads

    /// `d` on an episode: keeps it on disk in the background. The list shows how far it got
    /// (redrawn from the library at most twice a second) and a failure its typed error; a second
    /// `d` on an episode already downloading, or downloaded, does nothing.
    private func downloadSelected() {
        guard case .episode(let record)? = model.withLock({ $0.selectedEntry }), !record.downloaded else { return }
        guard downloading.withLock({ $0.insert(record.id).inserted }) else { return }
        let lastRefresh = Mutex(Date.distantPast)
        Task { [library] in
            let outcomes = await library.downloads.download([record.id]) { event in
                switch event {
                case .progress:
                    let due = lastRefresh.withLock { last in
                        guard Date().timeIntervalSince(last) >= 0.5 else { return false }
                        last = Date()
                        return true
                    }
                    if due { self.refreshEpisodes() }
                case .started, .removed:
                    self.refreshEpisodes()
                case .finished, .failed:
                    break
                }
            }
            self.downloading.withLock { _ = $0.remove(record.id) }
            if case .failure(let error)? = outcomes.first?.result {
                self.model.withLock { model in
                    model.alert = error
                    model.alertOperation = .download
                }
            }
            self.refreshEpisodes()
        }
    }

    /// Reloads the Episodes list when it is the one shown.
    private func refreshEpisodes() {
        model.withLock { model in
            guard model.tab == .podcasts, model.episodesOf != nil else { return model.changed() }
            model.reload(library.store, analytics: library.analytics, language: language)
        }
    }

    // MARK: History and favourites

    /// `l`: on Now Playing, likes the song playing; in History, likes the selected title or takes
    /// the like back; in Favourites, takes it back. Kept at once, on this machine only.
    private func like(onNowPlaying: Bool) {
        do throws(PlaybackError) {
            if onNowPlaying {
                guard try history.likeCurrent() != nil else { return }
                model.withLock { $0.player.markLiked(); $0.changed() }
                return
            }
            try model.withLock { (model) throws(PlaybackError) in
                switch model.selectedEntry {
                case .heard(let heard)?:
                    if heard.liked {
                        try library.store.unlike(title: heard.title, artist: heard.artist)
                    } else {
                        try library.store.like(title: heard.title, artist: heard.artist, station: heard.station, heardAt: heard.heardAt, at: Date())
                    }
                case .favourite(let song)?:
                    try library.store.unlike(title: song.title, artist: song.artist)
                default:
                    return
                }
                model.reload(library.store, analytics: library.analytics, language: language)
            }
        } catch {
            Task { [library] in await library.analytics.record(error, operation: "likeSong") }
            model.withLock { model in
                model.alert = error
                model.alertOperation = .playback
                model.changed()
            }
        }
    }

    // MARK: The station directory

    /// `f` anywhere, or `/` on an empty station list: the Stations tab with the directory's prompt.
    private func openDirectoryPrompt() {
        model.withLock { model in
            if model.tab != .stations {
                model.tab = .stations
                model.episodesOf = nil
                model.search = nil
                model.selection = 0
                model.list = .initial
                model.reload(library.store, analytics: library.analytics, language: language)
            }
            model.prompt = (TerminalStrings.prompt(.directory, in: language), "")
            model.promptPurpose = .findStations
            model.changed()
        }
    }

    /// Lists what the directory finds for `text` (its loading, error and empty states are the
    /// list's own); the search runs while the screen goes on.
    private func findStations(_ text: String) {
        let query = StationQuery.parse(text)
        let search = model.withLock { model in
            model.directoryQuery = text.trimmingCharacters(in: .whitespaces)
            model.directorySearches += 1
            model.entries = []
            model.selection = 0
            model.list = ListScreenState<LibraryRow>.initial.startLoading()
            model.changed()
            return model.directorySearches
        }
        Task { [library, directory, language] in
            let found: Result<[DirectoryStation], PlaybackError>
            do throws(PlaybackError) {
                found = .success(try await directory.get().search(query))
            } catch {
                await library.analytics.record(error, operation: "directorySearch")
                found = .failure(error)
            }
            self.model.withLock { model in
                // The listener may have left the results meanwhile, or searched again.
                guard model.directoryQuery != nil, model.directorySearches == search, model.tab == .stations else { return }
                switch found {
                case .success(let stations):
                    model.entries = stations.map(LibraryEntry.found)
                    model.reload(library.store, analytics: library.analytics, language: language)
                case .failure(let error):
                    model.reload(.failure(error))
                }
            }
        }
    }

    /// `a` on a directory result: keeps it in the library (with its directory id).
    private func keepFoundStation() {
        model.withLock { model in
            guard case .found(let station)? = model.selectedEntry else { return }
            do throws(PlaybackError) {
                _ = try library.addStation(from: station)
                model.reload(library.store, analytics: library.analytics, language: language)
            } catch {
                Task { [library] in await library.analytics.record(error, operation: "addStation") }
                model.alert = error
                model.alertOperation = .playback
                model.changed()
            }
        }
    }

    /// `R` on the Podcasts tab: every feed fetched again, a few at a time (`refreshAll`), while
    /// the list stays on screen loading; then the list shows the new counts, and a feed that
    /// failed is an alert with its error (the first, when several did).
    private func refreshPodcasts() {
        let starts = refreshingPodcasts.withLock { running in
            defer { running = true }
            return !running
        }
        guard starts else { return }
        model.withLock { model in
            model.list = model.list.startLoading()
            model.changed()
        }
        Task { [library, language] in
            let failure: PlaybackError?
            do throws(PlaybackError) {
                failure = try await library.podcasts.refreshAll().lazy.compactMap { report -> PlaybackError? in
                    if case .failure(let error) = report.outcome { error } else { nil }
                }.first
            } catch {
                await library.analytics.record(error, operation: "refreshPodcast")
                failure = error
            }
            self.refreshingPodcasts.withLock { $0 = false }
            self.model.withLock { model in
                // The listener may be on another tab by now; its list is not this one.
                if model.tab == .podcasts { model.reload(library.store, analytics: library.analytics, language: language) }
                if let failure {
                    model.alert = failure
                    model.alertOperation = .feed
                }
                model.changed()
            }
            // New episodes of podcasts that download them by themselves, shown as they come.
            for podcast in (try? library.store.autoDownloadPodcasts()) ?? [] {
                let outcomes = (try? await library.downloads.autoDownload(podcastID: podcast) { _ in self.refreshEpisodes() }) ?? []
                let failed = outcomes.lazy.compactMap { outcome -> PlaybackError? in
                    if case .failure(let error) = outcome.result { error } else { nil }
                }.first
                self.model.withLock { model in
                    if let failed, model.alert == nil {
                        model.alert = failed
                        model.alertOperation = .download
                    }
                    model.changed()
                }
            }
        }
    }

    /// What the user typed into the add prompt.
    private func submit(_ text: String, into model: inout LibraryModel) {
        if case .rename(let station) = model.promptPurpose {
            model.promptPurpose = .add
            do throws(PlaybackError) {
                try library.store.renameStation(id: station, to: text)
                model.reload(library.store, analytics: library.analytics, language: language)
            } catch {
                Task { [library] in await library.analytics.record(error, operation: "renameStation") }
                model.alert = error
                model.alertOperation = .playback
            }
            return
        }
        switch model.tab {
        case .stations:
            // A station is one row in the store: kept at once, on the thread that reads the keys,
            // as the lists are read there.
            let words = text.split(separator: " ").map(String.init)
            do throws(PlaybackError) {
                guard let last = words.last, let url = WebAddress.parse(last), words.count >= 2 else {
                    throw PlaybackError(.streamUnavailable, underlying: "expected a name and an http(s) URL")
                }
                _ = try library.store.addStation(name: words.dropLast().joined(separator: " "), url: url)
                model.reload(library.store, analytics: library.analytics, language: language)
            } catch {
                Task { [library] in await library.analytics.record(error, operation: "addStation") }
                model.alert = error
                model.alertOperation = .playback
            }
        case .podcasts:
            // A feed is fetched from the network: the screen goes on while it loads.
            Task { [library] in
                do throws(PlaybackError) {
                    guard let url = URL(string: text.trimmingCharacters(in: .whitespaces)) else { throw PlaybackError(.invalidFeed) }
                    _ = try await library.podcasts.add(feedURL: url)  // records its own failures
                    self.model.withLock { $0.reload(library.store, analytics: library.analytics, language: language) }
                } catch {
                    self.model.withLock {
                        $0.alert = error
                        $0.alertOperation = .feed
                        $0.changed()
                    }
                }
            }
        default:
            return
        }
    }

    /// A key that stands for a player command (space, s, n, r, arrows on Now Playing), as the
    /// state reads it.
    private func send(_ action: KeyAction, state: PlayerState) {
        guard let player = session.withLock({ $0 })?.player,
            let intent = model.withLock({ model in
                action.command?.intent(
                    in: state, position: model.player.position, loudness: model.player.loudness ?? .off, chapters: model.player.chapters)
            })
        else { return }
        Task(executorPreference: player.executor) { try? await player.send(intent) }
    }

    /// Starts `intent` on the app's one player (made on first use), with Now Playing open.
    /// - Parameter queue: the queue's plan when `replacement` plays the queue (its recorder keeps
    ///   the queue and each episode's place), else nil.
    private func play(_ replacement: PlayerEvent.Replacement, episode: Int64?, queue: QueuePlan? = nil, operation: AnalyticsIdentifier) {
        let observe: (@Sendable (PlayerUpdate) -> Void)?
        if let queue {
            let recorder = QueueRecorder(store: library.store, plan: queue)
            observe = { [weak self] update in
                recorder.observe(update)
                // What ended or was moved past leaves the queue: the Queue tab shows it at once.
                if case .state = update { self?.refreshTab(.queue) }
            }
        } else if let episode {
            let recorder = EpisodeProgressRecorder(store: library.store, episodeID: episode)
            observe = { recorder.observe($0) }
        } else {
            observe = nil
        }
        recorder.withLock { $0 = observe }
        model.withLock { $0.nowPlayingOpen = true; $0.changed() }
        // An episode plays at its podcast's own speed, anything else at the default.
        let podcast = episode.flatMap { try? library.store.episode(id: $0).podcastID }
        listeningSettings.use(podcast: podcast)
        let speed = ListeningSettings.savedSpeed(in: library.store, podcast: podcast) ?? .normal
        Task {
            do throws(PlaybackError) {
                let player = try await self.player()
                if await player.speed != speed { try await player.send(.setSpeed(.to(speed))) }
                try await player.send(.setSilenceTrimming(SilenceTrimmingSetting.isOn(in: self.library.store, podcast: podcast)))
                let replacement = await SessionLoudness.prepared(
                    replacement, mode: await player.loudness.mode, store: LibraryLoudnessStore(store: self.library.store, logger: self.logger))
                try await player.send(.replace(replacement))
            } catch {
                self.fail(error, operation: operation)
            }
        }
    }

    /// The app's one player. Made once: a second Enter while the first is still starting waits for
    /// the same player rather than starting another beside it; a failed start is tried again on
    /// the next Enter.
    private func player() async throws(PlaybackError) -> AudioPlayer {
        let starting = self.starting.withLock { current in
            if let current { return current }
            let made = Task { () async throws -> AudioPlayer in try await self.startPlayer() }
            current = made
            return made
        }
        do {
            return try await starting.value
        } catch {
            self.starting.withLock { $0 = nil }
            throw PlaybackError.from(error)
        }
    }

    private func startPlayer() async throws(PlaybackError) -> AudioPlayer {
        let chosen: OutputChoice
        if let output { chosen = output } else { chosen = try OutputChoice.automatic().choice }
        // The volume the listener last set; a change is kept for the next run.
        let made = try await PlaybackSession(
            output: chosen,
            configuration: .init(
                volume: ListeningSettings.savedVolume(in: library.store) ?? .full,
                speed: ListeningSettings.savedSpeed(in: library.store, podcast: nil) ?? .normal,
                loudness: ListeningSettings.savedLoudness(in: library.store) ?? .off),
            services: TonearmPlayer.Services(
                network: library.network, connectivity: connectivity, analytics: library.analytics, logger: logger,
                loudnessStore: LibraryLoudnessStore(store: library.store, logger: logger)))
        session.withLock { $0 = made }
        let player = made.player
        let mpris = MPRISBridge.start(
            player: player, quit: { [self] in self.quit.withLock { $0 = true } },
            warn: { warning in laterWarnings.withLock { $0.append(warning) } })
        let feeding = Task(executorPreference: player.executor) {
            defer { mpris?.stop() }
            await player.consumeUpdates { updates in
                for await update in updates {
                    mpris?.observe(update)
                    self.listeningSettings.observe(update)
                    self.history.observe(update)
                    self.observer?(update)
                    self.recorder.withLock { $0 }?(update)
                    self.model.withLock { model in
                        let before = model.player.version
                        model.player.apply(update)
                        if model.player.version != before { model.changed() }
                    }
                }
            }
        }
        updates.withLock { $0 = feeding }
        return player
    }

    private func fail(_ error: PlaybackError, operation: AnalyticsIdentifier) {
        Task { await library.analytics.record(error, operation: operation) }
        model.withLock { model in
            model.nowPlayingOpen = false
            model.alert = error
            model.alertOperation = .playback
            model.changed()
        }
    }
}
