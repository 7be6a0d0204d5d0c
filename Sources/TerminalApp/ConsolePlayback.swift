import AudioEngine
import Foundation
import MPRIS
import PlayerCore
import PlayerKit
import Presentation
import Services
import TerminalUI

/// One playback run from a console: the full Now Playing screen on a terminal, otherwise the line
/// interface (lines, sentences for a screen reader, or JSON events); stdin commands when stdin is
/// not the terminal; MPRIS when a session bus answers; the first signal stops playback.
package struct ConsolePlayback: Sendable {
    /// How the run talks to the person at the console.
    package enum Interface: Sendable, Equatable { case terminal, plain, lines }

    package var interface: Interface
    package var jsonEvents = false
    /// A render's progress on stderr; no MPRIS for a render (nobody controls it).
    package var progress: RenderProgress?
    package var connectivity: ConnectivityMonitor?
    package var mpris = true
    /// Likes the song playing (`l` on Now Playing); true when there was one.
    package var like: (@Sendable () -> Bool)?
    package var language: Language = .current
    /// Asked at `finished`: true when the next part of a queue starts on the same player, so the
    /// run goes on (`QueuePlayback`).
    package var continues: (@Sendable () -> Bool)?

    /// The full screen on a terminal (stdin and stdout both one) unless told otherwise; plain
    /// sentences with `plain` or TERM=dumb; otherwise a line per state (events, renders, pipes).
    package static func interface(
        plain: Bool, noScreen: Bool, machineOutput: Bool, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Interface {
        let term = environment["TERM"] ?? ""
        if machineOutput { return .lines }
        if plain || term == "dumb" { return .plain }
        if noScreen || term.isEmpty || isatty(STDOUT_FILENO) == 0 || isatty(STDIN_FILENO) == 0 { return .lines }
        return .terminal
    }

    package init(interface: Interface) {
        self.interface = interface
    }

    /// Starts `intent` on the session's player and runs until the session is over.
    /// - Returns: the failure playback ended in, if any.
    package func run(
        _ intent: PlayerEvent, on session: PlaybackSession, observer: (@Sendable (PlayerUpdate) -> Void)?
    ) async throws(PlaybackError) -> PlaybackError? {
        let player = session.player
        session.stopOnSignals()
        var interface = interface
        // Commands come on stdin in plain mode, and whenever stdin is not the terminal.
        if interface == .plain || (interface == .lines && isatty(STDIN_FILENO) == 0) { LinePlayback.forwardCommands(to: player, like: like) }
        // The first sample waits only for the decoder and the sink: the item starts loading before
        // the session bus is asked for MPRIS, which the updates reach all the same (they wait in
        // the player's stream until the loop below reads them).
        try await player.send(intent)
        CommandLog.startupStep("playback asked")
        let bridge = mpris ? MPRISBridge.start(player: player, quit: { Task(executorPreference: player.executor) { try? await player.stop() } }) : nil
        if mpris { CommandLog.startupStep(bridge == nil ? "MPRIS off" : "MPRIS ready") }
        defer { bridge?.stop() }
        let observer: @Sendable (PlayerUpdate) -> Void = { update in
            observer?(update)
            bridge?.observe(update)
        }
        let (bindings, warning) = TerminalConfig.bindings()
        var failure: PlaybackError?
        do throws(TerminalDisplayError) {
            guard interface == .terminal else { throw .unusable }
            if let warning { FileHandle.standardError.write(Data("tonearm: \(TextSanitizer.singleLine(warning, maxLength: 300))\n".utf8)) }
            failure = try await NowPlayingController(
                player: player, connectivity: connectivity, language: language, bindings: bindings, like: like, continues: continues
            ).run(observer: observer)
        } catch {
            if interface == .terminal {
                // curses cannot drive this terminal: the line interface instead.
                interface = .lines
                LinePlayback.forwardCommands(to: player, like: like)
            }
            failure = await LinePlayback(
                player: player, style: interface == .plain ? .plain : .lines, jsonEvents: jsonEvents, progress: progress,
                language: language, bindings: bindings, continues: continues
            ).run(observer: observer)
        }
        await player.flushAnalytics()
        return failure
    }
}
