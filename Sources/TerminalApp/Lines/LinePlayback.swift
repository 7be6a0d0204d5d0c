import AudioEngine
import Foundation
import PlayerCore
import PlayerKit
import Presentation
import TerminalUI

/// A playback without the full screen: a line per state change, or sentences for a screen reader
/// (`plain`), or nothing but JSON events (`--events jsonl`) and render progress; commands come on
/// stdin. Lines are written unbuffered, so a reader on a pipe sees each at once.
package struct LinePlayback: Sendable {
    package enum Style: Sendable { case lines, plain }

    let player: AudioPlayer
    let style: Style
    let jsonEvents: Bool
    let progress: RenderProgress?
    let language: Language
    let bindings: KeyBindings
    /// Asked at `finished`: true when the next part of a queue starts instead.
    let continues: (@Sendable () -> Bool)?

    package init(
        player: AudioPlayer, style: Style, jsonEvents: Bool, progress: RenderProgress?, language: Language, bindings: KeyBindings,
        continues: (@Sendable () -> Bool)? = nil
    ) {
        self.continues = continues
        self.player = player
        self.style = style
        self.jsonEvents = jsonEvents
        self.progress = progress
        self.language = language
        self.bindings = bindings
    }

    /// Runs until the session is over; returns the failure it ended in, if any. Plain mode has
    /// just said "press r" on a failure that can be retried, so it waits for that (or for stop,
    /// or the end of input); otherwise a failure ends the run.
    package func run(observer: (@Sendable (PlayerUpdate) -> Void)?) async -> PlaybackError? {
        var announcer = PlainAnnouncer(language: language, bindings: bindings)
        var latest = NowPlayingModel()
        var ending = SessionEnd(onFailure: style == .plain ? .waitsWhenRecoverable : .ends, continues: continues)
        var lastName: PlayerState.Name?
        var failure: PlaybackError?
        // Bells struck, said with the layers' next status (which tells the bell after them).
        var bells: [BellStrike] = []
        await player.consumeUpdates { updates in
            for await update in updates {
                observer?(update)
                if jsonEvents {
                    let speed = latest.speed?.rate(for: latest.state.currentTrack) ?? 1
                    let reconnecting = latest.connection?.reconnecting ?? false
                    // The chapter this update leaves playing: a chapter notice comes just before its position.
                    var after = latest
                    after.apply(update)
                    Self.write(
                        EventLine.json(
                            for: update, language: language, sleep: latest.sleepTimer, speed: speed, reconnecting: reconnecting,
                            chapter: after.chapter, layers: after.layers) + "\n")
                }
                let volumeBefore = latest.volume
                let reconnectingBefore = latest.connection?.reconnecting ?? false
                latest.apply(update)
                if case .layers = update { progress?.note(layers: latest.layersView(language: language)) }
                progress?.update(audioTime: update.audioTime)
                if case .notice(.bell(let strike), _) = update, strike.strike == 1 || strike.skipped, !jsonEvents, progress == nil {
                    bells.append(strike)
                }
                switch update {
                case .layers, .state:
                    let layers = latest.layersView(language: language)
                    for strike in bells {
                        Self.write(lines: Self.bellLines(strike, layers: layers, style: style, language: language, announcer: announcer))
                    }
                    bells = []
                default:
                    break
                }
                if case .connection(let quality, _) = update, quality.reconnecting != reconnectingBefore, !jsonEvents, progress == nil {
                    // Not a state, but the listener should know: the buffer covers a reconnect.
                    Self.write((quality.reconnecting ? Texts.string(UIString.connectionReconnecting, in: language) : latest.connectionText(language: language) ?? "") + "\n")
                }
                if case .notice(.keepsDropping, _) = update, !jsonEvents, progress == nil, let text = latest.keepsDroppingText(language: language) {
                    // Said once per stream: the station, not the player, is the trouble.
                    Self.write(text + "\n")
                }
                if case .notice(.cue(let position?), _) = update, !jsonEvents, progress == nil {
                    // A transcript's line as it is spoken: a listener who cannot hear reads along.
                    Self.write(position.cue.lineText + "\n")
                }
                if case .volume = update, volumeBefore != nil, !jsonEvents, progress == nil, let text = latest.volumeText(language: language) {
                    // A change the listener made (the volume at the start goes without saying).
                    Self.write(text + "\n")
                }
                guard case .state(let state, _, _) = update else { continue }
                progress?.note(state)
                let layers = Self.lastingStates.contains(state.name) ? latest.layersView(language: language) : nil
                if style == .plain {
                    Self.write(lines: announcer.lines(for: latest.view(language: language), layers: layers))
                } else if !jsonEvents && progress == nil && state.name != lastName {
                    Self.write(state.displayText(in: language) + "\n")
                    // How far a session with layers is, where the listener stays a while.
                    if let layers { Self.write(layers.lineText + "\n") }
                }
                lastName = state.name
                if case .failed(let error, _, _) = state { failure = error } else { failure = nil }
                if ending.isOver(after: state) { await player.shutdown() }
            }
        }
        progress?.finish()
        return failure
    }

    /// Sends each stdin line's command to `player`, as the state reads it; a line that is no
    /// command, or that the state refuses, is answered on stderr. When input ends, playback that
    /// waits for a resume nobody can send any more stops rather than stay paused forever; a
    /// failure ends; anything else plays on to its end. `like` (the line "like") keeps the song
    /// playing now in the favourites, said on stderr.
    package static func forwardCommands(to player: AudioPlayer, like: (@Sendable () -> Bool)? = nil) {
        Task.detached(executorPreference: player.executor) {
            for await line in HeadlessInput.lines() {
                if line.trimmingCharacters(in: .whitespaces).lowercased() == "like", let like {
                    let liked = like()
                    FileHandle.standardError.write(Data("tonearm: \(liked ? "liked" : "no song to like yet")\n".utf8))
                    continue
                }
                guard let command = HeadlessInput.parse(line) else {
                    if !line.trimmingCharacters(in: .whitespaces).isEmpty {
                        FileHandle.standardError.write(Data("tonearm: unknown command: \(TextSanitizer.singleLine(line, maxLength: 80))\n".utf8))
                    }
                    continue
                }
                let state = await player.state
                guard
                    let intent = command.intent(
                        in: state, position: await player.currentPosition, loudness: await player.loudness, chapters: await player.currentChapters)
                else {
                    let refused = PlaybackError.invalidTransition(command.action, in: state.name)
                    FileHandle.standardError.write(Data("tonearm: \(refused.message(in: Language.current))\n".utf8))
                    continue
                }
                do {
                    try await player.send(intent)
                } catch {
                    FileHandle.standardError.write(Data("tonearm: \(PlaybackError.from(error).message(in: Language.current))\n".utf8))
                }
            }
            let state = await player.state
            if state.canResume {
                try? await player.stop()
            } else if state.name == .failed {
                await player.shutdown()
            }
        }
    }

    /// The states a session's layers are said with: where a listener stays (a line per change of
    /// preparing or crossfading would repeat what the next line says).
    static let lastingStates: Set<PlayerState.Name> = [.playing, .paused, .crossfadePaused]

    /// A bell as the line modes say it: "Bell at 5:00 · Elapsed 5:00 · 15:00 left · Next bell in
    /// 5:00", or as sentences in plain mode.
    static func bellLines(
        _ strike: BellStrike, layers: SessionLayersViewState?, style: Style, language: Language, announcer: PlainAnnouncer
    ) -> [String] {
        switch style {
        case .plain: announcer.lines(forBell: strike, layers: layers)
        case .lines:
            [([SessionLayersViewState.bellText(strike, language: language)] + [layers?.lineText].compactMap { $0 }).joined(separator: " · ")]
        }
    }

    private static func write(lines: [String]) {
        for line in lines { write(line + "\n") }
    }

    private static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
