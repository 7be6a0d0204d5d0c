import Foundation
import PlayerCore
import TestProcesses
import Testing

@testable import AudioEngine

/// Collects a player's updates until `done` says so (or a timeout shuts the player down), so
/// end-to-end tests read as: play, then look at what was published.
actor UpdateLog {
    private(set) var updates: [PlayerUpdate] = []

    func append(_ update: PlayerUpdate) {
        updates.append(update)
    }

    /// Waits until `predicate` holds for the log, or `timeout` seconds pass (returns false).
    func wait(timeout: Double, _ predicate: @Sendable ([PlayerUpdate]) -> Bool) async -> Bool {
        await eventually(timeout: timeout) { predicate(updates) }
    }

    var states: [PlayerState] {
        updates.compactMap { if case .state(let s, _, _) = $0 { s } else { nil } }
    }

    /// State names with repeats folded: the shape of what happened.
    var stateNames: [PlayerState.Name] {
        var out: [PlayerState.Name] = []
        for s in states where out.last != s.name { out.append(s.name) }
        return out
    }
}

extension AudioPlayer {
    /// Starts logging every update into `log`.
    nonisolated func record(into log: UpdateLog) {
        let updates = self.updates
        // On the player's own thread, as a front end reads them: a busy pool delays nothing here.
        Task(executorPreference: executor) {
            for await update in updates { await log.append(update) }
        }
    }
}

extension AudioPlayer {
    /// Renders `request` (the player must not have started) until `finished`, expecting it within
    /// `timeout` seconds, shuts the player down and returns every update it published.
    func renderToTheEnd(_ request: PlayRequest, timeout: Double = 60) async throws -> UpdateLog {
        let log = UpdateLog()
        record(into: log)
        try start()
        try play(request)
        #expect(await log.wait(timeout: timeout, reached(.finished)), "the render did not finish")
        shutdown()
        return log
    }
}

func reached(_ name: PlayerState.Name) -> @Sendable ([PlayerUpdate]) -> Bool {
    { updates in updates.contains { if case .state(let s, _, _) = $0 { s.name == name } else { false } } }
}

func track(_ url: URL, seconds: Double? = nil) -> Track {
    Track(id: url.lastPathComponent, url: url, kind: .file, title: url.deletingPathExtension().lastPathComponent, duration: seconds ?? FileDurationProbe.duration(of: url))
}
