import AudioEngine
import Foundation
import LibraryKit
import Logging
import Library
import PlayerCore
import PlayerKit
import Presentation
import Services
import Synchronization
import TerminalUI

/// The library screens, and Now Playing for what is started from them. Like
/// `NowPlayingController`, one thread owns the terminal (reads a key, redraws when something
/// changed, 20 times a second at most). What a key or an answer means is decided by
/// `LibraryStateMachine`; this runner performs its effects: the library's reads and changes, the
/// player, the directory, downloads. Keys arrive through `handle(_:)` and frames leave through
/// `frame(tick:width:height:)`, so the controller runs the same without a terminal.
package final class LibraryController: Sendable {
    let library: LibraryContext
    let output: OutputChoice?
    let language: Language
    let bindings: KeyBindings
    let logger: Logger
    let observer: (@Sendable (PlayerUpdate) -> Void)?
    /// The screen's state and its decisions; every key, answer and player update passes through it.
    let machine: Mutex<LibraryStateMachine>
    /// The app's one player, once started.
    let playback = Mutex(PlayerSlot())
    /// Said on stderr once the screen is gone (writing while curses draws would garble it).
    let laterWarnings = Mutex<[String]>([])
    /// The player's wiring to the library: its services, kept settings and the one list of
    /// observers (kept settings, title history, station lessons, episode places, failure timeline).
    let assembly: LibraryPlayerAssembly
    /// One monitor for the offline banner and the player's reconnect pausing.
    let connectivity = ConnectivityMonitor()
    /// The station directory, or why it cannot be asked (its configured address is not http(s)).
    let directory: Result<StationDirectory, PlaybackError>
    /// The sync password (`SyncPassword`), read when a sync runs.
    let syncPassword: @Sendable () -> String?
    /// The folder the music index's paths are relative to (songs play from it, `R` indexes it).
    let musicDirectory: URL?

    /// - Parameters:
    ///   - output: where sound goes; nil chooses PulseAudio when the first item plays.
    ///   - observer: sees every update of the player, in order.
    ///   - directory: the station directory; nil: the one `DirectorySettings` configures.
    ///   - syncPassword: where the sync password comes from (the environment or config.toml).
    ///   - musicDirectory: the music folder the index was made of; nil: the Music tab cannot play
    ///     or index (it still lists what the index holds).
    package init(
        library: LibraryContext, output: OutputChoice?, language: Language, bindings: KeyBindings, logger: Logger,
        observer: (@Sendable (PlayerUpdate) -> Void)? = nil, directory: StationDirectory? = nil,
        syncPassword: @escaping @Sendable () -> String? = { try? SyncPassword.find() }, musicDirectory: URL? = nil
    ) {
        self.musicDirectory = musicDirectory
        self.syncPassword = syncPassword
        self.observer = observer
        self.library = library
        assembly = LibraryPlayerAssembly(library: library, logger: logger)
        self.output = output
        self.language = language
        self.bindings = bindings
        self.logger = logger
        var machine = LibraryStateMachine(language: language, bindings: bindings, musicDirectory: musicDirectory)
        if let musicDirectory, !Self.isFolder(musicDirectory) { machine.model.missingMusicFolder = LibraryStateMachine.shown(musicDirectory) }
        self.machine = Mutex(machine)
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
    var isQuitting: Bool { machine.withLock { $0.isQuitting } }

    /// Runs until `q`. The terminal loop gets a thread of its own: the calling (main) thread and
    /// the cooperative pool stay free for the player and the library.
    package func run() async throws(TerminalDisplayError) {
        let display = try TerminalDisplay()
        TerminalRestore.install(display)
        load()
        let network = Task { [self] in
            for await online in await connectivity.updates() { self.dispatch(.network(online: online)) }
        }
        defer { network.cancel() }
        // Ctrl-C, a kill and a closed terminal end the loop like q, so the terminal is restored.
        PlaybackSession.onSignals { [self] in self.dispatch(.quit) }
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
    func load() { dispatch(.opened) }

    /// A key, as the terminal reads it.
    func handle(_ key: Key) { dispatch(.key(key)) }

    /// Carries out a removal still waiting for its undo, stops what plays (an episode's place is
    /// saved), then waits until every update (the save among them) has reached the recorder and
    /// every error is recorded.
    func finish() async {
        dispatch(.closing)
        guard let session = playback.withLock({ $0.session }) else { return }
        await session.finish()
        await playback.withLock { $0.feeding }?.value
    }

    private func loop(_ display: TerminalDisplay) {
        TerminalLoop.run(
            display, shouldQuit: { isQuitting }, onKey: handle,
            status: {
                machine.withLock { machine in
                    let model = machine.model
                    return TerminalLoop.Status(
                        version: model.version,
                        moving: model.list.isLoading || model.player.state.showsLoading || model.player.state.name == .reconnecting)
                }
            },
            frame: frame)
    }

    func frame(tick: Int, width: Int, height: Int) -> Canvas {
        machine.withLock { machine in
            let model = machine.model
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

    // MARK: Performing the machine's effects

    /// Hands `event` to the state machine and performs what it asks: the library's reads and
    /// changes at once, under the same lock, so no frame shows a list half-changed and their
    /// answers are decided before anything else; what waits for the network, the disk or the
    /// player afterwards, in order, each on a task of its own.
    func dispatch(_ event: LibraryEvent) {
        let later = machine.withLock { machine -> [LibraryEffect] in
            var pending = machine.handle(event)
            var later: [LibraryEffect] = []
            while !pending.isEmpty {
                let effect = pending.removeFirst()
                guard effect.isAtOnce else {
                    later.append(effect)
                    continue
                }
                // What an answer asks for comes before the effects still waiting.
                if let answer = performAtOnce(effect, model: machine.model) { pending.insert(contentsOf: machine.handle(answer), at: 0) }
            }
            return later
        }
        later.forEach(start)
    }

    /// A read or a change of the library, and its answer.
    private func performAtOnce(_ effect: LibraryEffect, model: LibraryModel) -> LibraryEvent? {
        switch effect {
        case .reload:
            return .rows(Result { () throws(PlaybackError) in try model.rows(in: library.store, language: language, learnedRetries: library.podcasts.learnedRetries) })
        case .change(let change):
            return .changed(change, failure: perform(change))
        case .remove(let entry):
            return remove(entry).map(LibraryEvent.removalFailed)
        case .logRemoval(let entry):
            logger.info("library item removed (undo possible until the screen closes)", metadata: ["kind": .string(entry.kind)])
            return nil
        case .resolve(let target):
            return resolve(target)
        case .likeCurrent:
            return .likedCurrent(Result { () throws(PlaybackError) in try assembly.observers.history.likeCurrent() != nil })
        case .play, .send, .searchDirectory, .countClick, .addFeed, .refreshPodcasts, .download, .loadDiagnostics, .record, .updateMusicIndex:
            return nil
        }
    }

    /// Something that waits: started, its answers dispatched as they come.
    private func start(_ effect: LibraryEffect) {
        switch effect {
        case .play(let playback): play(playback)
        case .send(let intent): send(intent)
        case .searchDirectory(let query, let search): searchDirectory(query, search: search)
        case .countClick(let id): countClick(directoryID: id)
        case .addFeed(let url): addFeed(url)
        case .refreshPodcasts: refreshPodcasts()
        case .download(let episode): download(episode: episode)
        case .loadDiagnostics: loadDiagnostics()
        case .record(let error, let operation): Task { [library] in await library.analytics.record(error, operation: operation) }
        case .updateMusicIndex(let rescan): updateMusicIndex(rescan: rescan)
        case .reload, .change, .remove, .logRemoval, .resolve, .likeCurrent: break
        }
    }
}
