import Foundation
import PlayerCore
import Testing

/// Every row of `PlayerState.transitionTable` is driven through the real machine by its trigger.
/// A row added without a scenario here fails `everyRowHasAScenario`.
@Suite("Transition table")
struct TransitionTableTests {
    typealias Scenario = @Sendable () throws -> Driver

    /// For each (from, to): a script that starts in `from` and ends in `to` via the row's trigger.
    static let scenarios: [String: Scenario] = [
        "idle->preparing": { var d = Driver(); try d.send(.play(Fixture.request(Fixture.stage1))); return d },
        "preparing->playing": { try Driver.playing(Fixture.stage1) },
        "preparing->failed": {
            var d = Driver(); try d.send(.play(Fixture.request(Fixture.stage1)))
            try d.send(.loadFailed(d.lastLoad!, PlaybackError(.fileNotFound), at: .zero)); return d
        },
        "preparing->idle": { var d = Driver(); try d.send(.play(Fixture.request(Fixture.stage1))); try d.send(.stop); return d },
        "playing->paused": { var d = try Driver.playing(Fixture.stage1); try d.send(.pause); return d },
        "playing->preparingCrossfade": { try Driver.preparingCrossfade() },
        "playing->fadingOut": { try Driver.fadingOut() },
        "playing->finished": {
            var d = try Driver.playing(Fixture.stage1, config: Fixture.config(fadeOutAtEnd: false))
            try d.send(.trackEnded(.a, at: .zero)); return d
        },
        "playing->failed": { try Driver.failedFinal() },
        "preparingCrossfade->crossfading": { try Driver.crossfading(at: 0) },
        "preparingCrossfade->paused": { var d = try Driver.preparingCrossfade(); try d.send(.pause); return d },
        "preparingCrossfade->fadingOut": { var d = try Driver.preparingCrossfade(); try d.send(.stop); return d },
        "crossfading->crossfadePaused": { try Driver.crossfadePaused() },
        "crossfading->playing": { var d = try Driver.crossfading(); try d.send(.crossfadeCompleted); return d },
        "crossfading->fadingOut": { var d = try Driver.crossfading(); try d.send(.stop); return d },
        "crossfading->failed": {
            var d = try Driver.crossfading(); try d.send(.errorOccurred(.b, PlaybackError(.corruptData), at: .zero)); return d
        },
        "paused->playing": { var d = try Driver.paused(); try d.send(.resume); return d },
        "paused->idle": { var d = try Driver.paused(); try d.send(.stop); return d },
        "crossfadePaused->crossfading": { var d = try Driver.crossfadePaused(at: 0.3); try d.send(.resume); return d },
        "crossfadePaused->playing": { var d = try Driver.crossfadePaused(at: 1.0); try d.send(.resume); return d },
        "crossfadePaused->idle": { var d = try Driver.crossfadePaused(); try d.send(.stop); return d },
        "fadingOut->finished": { try Driver.finished() },
        "finished->preparing": { var d = try Driver.finished(); try d.send(.play(Fixture.request(Fixture.stage2))); return d },
        "failed->idle": { var d = try Driver.failedFinal(); try d.send(.reset); return d },
        "failed->preparing": { var d = try Driver.failedRecoverable(); try d.send(.retry); return d },
        "preparing->buffering": {
            var d = Driver(); try d.send(.play(Fixture.request(Fixture.live())))
            try d.send(.bufferProgress(d.lastLoadDeck!, fill: 0.2)); return d
        },
        "playing->buffering": { try Driver.buffering() },
        "buffering->buffering": { var d = try Driver.buffering(); try d.send(.bufferProgress(.a, fill: 0.5)); return d },
        "buffering->playing": { var d = try Driver.buffering(); try d.send(.refilled(.a)); return d },
        "buffering->paused": { var d = try Driver.buffering(); try d.send(.pause); return d },
        "buffering->idle": { var d = try Driver.buffering(); try d.send(.stop); return d },
        "buffering->failed": {
            var d = try Driver.buffering(); try d.send(.errorOccurred(.a, PlaybackError(.unsupportedFormat), at: .zero)); return d
        },
        "preparing->reconnecting": {
            var d = Driver(); try d.send(.play(Fixture.request(Fixture.live())))
            try d.send(.loadFailed(d.lastLoad!, PlaybackError(.connectionFailed), at: .zero)); return d
        },
        "playing->reconnecting": { try Driver.reconnecting() },
        "buffering->reconnecting": {
            var d = try Driver.buffering()
            let due = try #require(d.lastScheduled(.bufferingTimeout))
            try d.send(.timerFired(due.timer, at: due.at)); return d
        },
        "preparingCrossfade->reconnecting": {
            var d = try Driver.playing(Fixture.episode("a"), Fixture.episode("b"))
            try d.send(.skip)
            try d.send(.errorOccurred(.a, PlaybackError(.connectionLost), at: .zero)); return d
        },
        "crossfading->reconnecting": {
            var d = try Driver.playing(Fixture.episode("a"), Fixture.episode("b"))
            try d.send(.skip)
            try d.send(.loaded(d.lastLoad!, duration: 3600))
            try d.send(.crossfadeStarted)
            try d.send(.streamDropped(.b, cause: PlaybackError(.connectionLost), at: .zero)); return d
        },
        "reconnecting->reconnecting": {
            var d = try Driver.reconnecting(); try d.send(.connectivityChanged(online: false, at: PlayerTime(seconds: 11))); return d
        },
        "reconnecting->preparing": {
            var d = try Driver.reconnecting()
            let due = d.lastScheduledRetry!
            try d.send(.timerFired(.retry(attempt: due.attempt), at: due.at)); return d
        },
        "reconnecting->playing": {
            var d = try Driver.live(); try d.send(.outputLost(at: .zero)); try d.send(.outputRestored); return d
        },
        "reconnecting->paused": { var d = try Driver.reconnecting(); try d.send(.pause); return d },
        "reconnecting->idle": { var d = try Driver.reconnecting(); try d.send(.stop); return d },
        "reconnecting->failed": { var d = try Driver.reconnecting(); try d.send(.cancelRetry); return d },
        "playing->playing": { var d = try Driver.playing(Fixture.stage1); try d.send(.seek(to: 30)); return d },
        "paused->paused": { var d = try Driver.paused(); try d.send(.seek(to: 10)); return d },
        "paused->preparing": {
            var d = try Driver.live(); try d.send(.pause)
            try d.send(.streamDropped(.a, cause: PlaybackError(.connectionLost), at: .zero))
            try d.send(.resume); return d
        },
        "paused->failed": {
            var d = try Driver.paused(); try d.send(.errorOccurred(.a, PlaybackError(.corruptData), at: .zero)); return d
        },
        "crossfadePaused->failed": {
            var d = try Driver.crossfadePaused(); try d.send(.errorOccurred(nil, PlaybackError(.corruptData), at: .zero)); return d
        },
        "preparingCrossfade->failed": {
            var d = try Driver.preparingCrossfade(); try d.send(.errorOccurred(.a, PlaybackError(.corruptData), at: .zero)); return d
        },
        "preparingCrossfade->preparingCrossfade": {
            var d = try Driver.preparingCrossfade()
            try d.send(.loadFailed(d.lastLoad!, PlaybackError(.corruptData), at: .zero)); return d
        },
        "preparingCrossfade->playing": {
            var d = try Driver.playing(Fixture.stage1, Fixture.stage2)
            try d.send(.skip)
            try d.send(.loadFailed(d.lastLoad!, PlaybackError(.fileNotFound), at: .zero)); return d
        },
        "preparingCrossfade->preparing": {
            var d = try Driver.preparingCrossfade(); try d.send(.trackEnded(.a, at: .zero)); return d
        },
        "crossfading->crossfading": { var d = try Driver.crossfading(at: 0.2); try d.send(.crossfadeProgress(0.6, fromPosition: 101, toPosition: 1.2)); return d },
        "finished->idle": { var d = try Driver.finished(); try d.send(.reset); return d },
        "idle->failed": { var d = Driver(); try d.send(.cannotPlay(PlaybackError(.missingAudioURL))); return d },
        "finished->failed": { var d = try Driver.finished(); try d.send(.cannotPlay(PlaybackError(.missingAudioURL))); return d },
        "failed->failed": { var d = try Driver.failedFinal(); try d.send(.cannotPlay(PlaybackError(.missingAudioURL))); return d },
        "preparing->preparing": {
            var d = Driver(); try d.send(.play(Fixture.request(Fixture.stage1)))
            try d.send(.replace(.play(Fixture.request(Fixture.stage2)))); return d
        },
        "crossfadePaused->preparing": {
            var d = try Driver.crossfadePaused(); try d.send(.replace(.play(Fixture.request(Fixture.stage3)))); return d
        },
        "fadingOut->preparing": {
            var d = try Driver.fadingOut(); try d.send(.replace(.play(Fixture.request(Fixture.stage2))))
            try d.send(.fadeOutCompleted); return d
        },
        "fadingOut->failed": {
            var d = try Driver.fadingOut(); try d.send(.replace(.cannotPlay(PlaybackError(.missingAudioURL))))
            try d.send(.fadeOutCompleted); return d
        },
        "playing->preparing": {
            var d = try Driver.playing(Fixture.file("a", duration: nil), Fixture.file("b", duration: nil))
            try d.send(.trackEnded(.a, at: .zero)); return d
        },
        "buffering->finished": {
            var d = try Driver.playing(Fixture.episode("a", duration: nil))
            try d.send(.underrun(.a))
            try d.send(.trackEnded(.a, at: .zero)); return d
        },
        "buffering->preparing": {
            var d = try Driver.playing(Fixture.episode("a", duration: nil), Fixture.episode("b"))
            try d.send(.underrun(.a))
            try d.send(.trackEnded(.a, at: .zero)); return d
        },
        // A seek in a network episode.
        "playing->seeking": { try seeking() },
        "buffering->seeking": {
            var d = try Driver.playing(Fixture.episode("ep"))
            try d.send(.underrun(.a))
            try d.send(.seek(to: 30)); return d
        },
        "seeking->seeking": { var d = try seeking(); try d.send(.seek(to: 40)); return d },
        "seeking->playing": { var d = try seeking(); try d.send(.positionChanged(.a, position: 30.5)); return d },
        "seeking->paused": { var d = try seeking(); try d.send(.pause); return d },
        "seeking->idle": { var d = try seeking(); try d.send(.stop); return d },
        "seeking->preparing": {
            var d = try seeking()
            try d.send(.errorOccurred(.a, PlaybackError(.httpNotFound), at: .zero)); return d
        },
        "seeking->reconnecting": { var d = try seeking(); try d.send(.outputLost(at: .zero)); return d },
        "seeking->finished": { var d = try seeking(); try d.send(.trackEnded(.a, at: .zero)); return d },
        "seeking->failed": {
            var d = try seeking()
            try d.send(.replace(.cannotPlay(PlaybackError(.missingAudioURL)))); return d
        },
    ]

    /// A network episode seeking from 10 s to 30 s.
    static func seeking() throws -> Driver {
        var d = try Driver.playing(Fixture.episode("ep"))
        try d.send(.positionChanged(.a, position: 10))
        try d.send(.seek(to: 30))
        return d
    }

    /// Core rows the machine never produces on its own; `canTransition` still accepts them.
    static let coreOnlyRows: Set<String> = ["playing->crossfading"]

    static func key(_ rule: TransitionRule) -> String { "\(rule.from.rawValue)->\(rule.to.rawValue)" }

    @Test func everyRowHasAScenario() {
        for rule in PlayerState.transitionTable {
            let key = Self.key(rule)
            #expect(Self.scenarios[key] != nil || Self.coreOnlyRows.contains(key), "no scenario for \(key)")
        }
        let rows = Set(PlayerState.transitionTable.map(Self.key))
        for key in Self.scenarios.keys { #expect(rows.contains(key), "scenario \(key) has no table row") }
    }

    @Test func tableHasNoDuplicateRows() {
        let keys = PlayerState.transitionTable.map(Self.key)
        #expect(Set(keys).count == keys.count)
    }

    @Test(arguments: PlayerState.transitionTable.map(TransitionTableTests.key))
    func rowIsDrivenByItsTrigger(_ key: String) throws {
        guard let scenario = Self.scenarios[key] else {
            #expect(Self.coreOnlyRows.contains(key))
            return
        }
        let parts = key.components(separatedBy: "->")
        let d = try scenario()
        #expect(d.state.name.rawValue == parts[1], "\(key) ended in \(d.state.name)")
        #expect(d.state.isValid)
        if parts[0] != parts[1] {
            #expect(d.names.suffix(2).first?.rawValue == parts[0], "\(key): history \(d.names)")
        }
    }

    @Test func coreTableRowsArePresent() {
        // Every core transition, listed here independently of the table.
        let core: [(PlayerState.Name, PlayerState.Name)] = [
            (.idle, .preparing), (.preparing, .playing), (.preparing, .failed), (.preparing, .idle),
            (.playing, .paused), (.playing, .preparingCrossfade), (.playing, .fadingOut), (.playing, .crossfading),
            (.playing, .finished), (.playing, .failed), (.preparingCrossfade, .crossfading), (.preparingCrossfade, .paused),
            (.crossfading, .crossfadePaused), (.crossfading, .playing), (.crossfading, .fadingOut), (.paused, .playing),
            (.paused, .idle), (.crossfadePaused, .crossfading), (.crossfadePaused, .playing), (.crossfadePaused, .idle),
            (.fadingOut, .finished), (.finished, .preparing), (.failed, .idle), (.failed, .preparing),
        ]
        let rows = Set(PlayerState.transitionTable.map(Self.key))
        for (from, to) in core { #expect(rows.contains("\(from.rawValue)->\(to.rawValue)")) }
    }

    @Test func coreInvalidTransitionsStayInvalid() {
        // Transitions that must never be allowed.
        let t = Fixture.stage1
        let u = Fixture.stage2
        let crossfading = PlayerState.crossfading(fromTrack: t, toTrack: u, progress: 0.5, canQuickFinish: true)
        #expect(!PlayerState.idle.canTransition(to: crossfading))
        #expect(!PlayerState.paused(track: t, position: 1).canTransition(to: crossfading))
        let snapshot = CrossfadePauseSnapshot(
            activeVolume: 0.7, inactiveVolume: 0.7, activePosition: 1, inactivePosition: 1, activePlayer: .a,
            originalDuration: 10, curve: .equalPower, takenAt: .zero)
        let cfp = PlayerState.crossfadePaused(fromTrack: t, toTrack: u, progress: 0.5, resumeStrategy: .quickFinish, savedState: snapshot)
        #expect(!cfp.canTransition(to: .paused(track: t, position: 1)))
        #expect(!PlayerState.finished.canTransition(to: .playing(track: t)))
        #expect(!PlayerState.failed(error: PlaybackError(.unknown), recoverable: true, resumePoint: nil).canTransition(to: .playing(track: t)))
        #expect(!PlayerState.fadingOut(track: t, targetDuration: 0.5).canTransition(to: .playing(track: t)))
        #expect(!PlayerState.idle.canTransition(to: .finished))
    }
}
