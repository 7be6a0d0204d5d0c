import Foundation
import PlayerCore
import Testing

/// `setUpcoming` changes what plays after the current item while it plays (a queue edited by an
/// MPD client): the current item goes on untouched, a next item not audible yet is kept only when
/// it is still the next one, and what comes after is the new list.
@Suite("Changing what plays next")
struct UpcomingTests {
    static let x = Fixture.file("x", duration: 600)
    static let y = Fixture.file("y", duration: 600)

    static func upcoming(_ tracks: Track..., crossfade: CrossfadeSpec? = nil) -> PlayerEvent {
        .setUpcoming(UpcomingChange(items: tracks.map { QueueItem(track: $0) }, crossfadeFromCurrent: crossfade))
    }

    /// The tracks loaded by `effects`, with their decks.
    static func loads(_ effects: [PlayerEffect]) -> [(DeckID, Track)] {
        effects.compactMap { if case .load(_, let deck, let track, _) = $0 { (deck, track) } else { nil } }
    }

    static func crossfades(_ effects: [PlayerEffect]) -> [(duration: TimeInterval, at: TimeInterval?)] {
        effects.compactMap { if case .scheduleCrossfade(_, _, let duration, _, let at) = $0 { (duration, at) } else { nil } }
    }

    /// stage1 of [stage1, stage2, stage3] at 585 s: stage2 loads on deck b (10 s crossfade, 5 s lead).
    static func preloading() throws -> Driver {
        var d = try Driver.playing(Fixture.stage1, Fixture.stage2, Fixture.stage3)
        try d.send(.positionChanged(.a, position: 585))
        #expect(d.state == .preparingCrossfade(currentTrack: Fixture.stage1, nextTrack: Fixture.stage2))
        return d
    }

    /// `preloading()` with stage2 loaded: the crossfade is armed at 590 s of stage1.
    static func armed() throws -> Driver {
        var d = try Self.preloading()
        let out = try d.send(.loaded(d.lastLoad!, duration: 600))
        #expect(crossfades(out).map(\.at) == [590])
        return d
    }

    // MARK: Accepted everywhere, changing no state by itself

    @Test(arguments: IntentRejectionTests.samples.map(\.0))
    func acceptedInEveryStateAndTheCurrentItemGoesOn(_ label: String) throws {
        var d = try IntentRejectionTests.samples.first { $0.0 == label }!.1()
        let before = d.state
        let out = try d.send(Self.upcoming(Self.x))
        #expect(d.state.currentTrack == before.currentTrack, "\(label)")
        if before.name == .preparingCrossfade {
            // The skip's next item is not the new next one: the skip goes on to the new one.
            #expect(d.state == .preparingCrossfade(currentTrack: Fixture.stage1, nextTrack: Self.x))
        } else {
            #expect(d.state == before, "\(label)")
            #expect(out.withoutTimers.isEmpty, "\(label): \(out)")
        }
    }

    @Test(arguments: ["idle", "finished", "failed recoverable", "failed final"])
    func withNothingCurrentItDoesNothing(_ label: String) throws {
        var d = try IntentRejectionTests.samples.first { $0.0 == label }!.1()
        let machine = d.machine
        let out = try d.send(Self.upcoming(Self.x, crossfade: CrossfadeSpec(duration: 3)))
        #expect(out.isEmpty)
        #expect(d.machine.state == machine.state && d.machine.currentItemIndex == nil)
        if label == "failed recoverable" {
            // Retry resumes what failed, not the list given while nothing played.
            try d.send(.retry)
            #expect(d.state == .preparing(track: Fixture.episode("ep1")))
        }
        if label == "finished" {
            try d.send(.play(Fixture.request(Fixture.stage2)))
            try d.send(.loaded(d.lastLoad!, duration: 600))
            try d.send(.positionChanged(.a, position: 599.5))
            #expect(d.state.name == .fadingOut, "nothing was queued after stage2")
        }
    }

    // MARK: While an item plays

    @Test func theNewItemsFollowTheCurrentOne() throws {
        var d = try Driver.playing(Fixture.stage1, Fixture.stage2, Fixture.stage3)
        try d.send(.positionChanged(.a, position: 100))
        let out = try d.send(Self.upcoming(Self.x, Self.y))
        #expect(out.withoutTimers.isEmpty && d.state == .playing(track: Fixture.stage1))
        let preload = try d.send(.positionChanged(.a, position: 585))
        #expect(Self.loads(preload).map(\.1) == [Self.x])
        try d.send(.loaded(d.lastLoad!, duration: 600))
        try d.send(.crossfadeStarted)
        try d.send(.crossfadeCompleted)
        #expect(d.state == .playing(track: Self.x) && d.machine.currentItemIndex == 1)
        try d.send(.positionChanged(.b, position: 585))
        #expect(d.state == .preparingCrossfade(currentTrack: Self.x, nextTrack: Self.y))
    }

    @Test func anEmptyListMakesTheCurrentItemTheLast() throws {
        var d = try Driver.playing(Fixture.stage1, Fixture.stage2)
        try d.send(Self.upcoming())
        let out = try d.send(.positionChanged(.a, position: 599.5))
        #expect(Self.loads(out).isEmpty)
        #expect(d.state.name == .fadingOut)
    }

    @Test func anItemAddedAfterTheLastPlaysNext() throws {
        var d = try Driver.playing(Fixture.stage1)
        try d.send(.positionChanged(.a, position: 100))
        try d.send(Self.upcoming(Self.x))
        let out = try d.send(.positionChanged(.a, position: 585))
        #expect(Self.loads(out).map(\.1) == [Self.x])
    }

    @Test func anItemAddedPastItsLoadingPointLoadsAtOnce() throws {
        var d = try Driver.playing(Fixture.stage1)
        try d.send(.positionChanged(.a, position: 592))
        let out = try d.send(Self.upcoming(Self.x))
        #expect(Self.loads(out).map(\.1) == [Self.x])
        #expect(d.state == .preparingCrossfade(currentTrack: Fixture.stage1, nextTrack: Self.x))
        // Its crossfade point has passed: it begins at once.
        let armed = try d.send(.loaded(d.lastLoad!, duration: 600))
        #expect(Self.crossfades(armed).map(\.at) == [nil])
    }

    @Test func theCrossfadeFromTheCurrentItemIsTheOneAskedFor() throws {
        var d = try Driver.playing(Fixture.stage1, Fixture.stage2)
        try d.send(.positionChanged(.a, position: 100))
        try d.send(Self.upcoming(Self.x, crossfade: CrossfadeSpec(duration: 3, curve: .linear)))
        // It loads 3 + 5 s before the end, and fades over 3 s.
        #expect(Self.loads(try d.send(.positionChanged(.a, position: 590))).isEmpty)
        #expect(Self.loads(try d.send(.positionChanged(.a, position: 592))).map(\.1) == [Self.x])
        let out = try d.send(.loaded(d.lastLoad!, duration: 600))
        #expect(out.contains(.scheduleCrossfade(from: .a, to: .b, duration: 3, curve: .linear, atPosition: 597)))
    }

    @Test func noCrossfadeAskedForIsTheDefaultOne() throws {
        // The request asked for 4 s into stage2; a change without a crossfade goes back to the default.
        var d = Driver(Fixture.config(crossfade: 10))
        let items = [QueueItem(track: Fixture.stage1, crossfadeIntoNext: CrossfadeSpec(duration: 4)), QueueItem(track: Fixture.stage2)]
        try d.send(.play(PlayRequest(items: items)!))
        try d.send(.loaded(d.lastLoad!, duration: 600))
        try d.send(Self.upcoming(Self.x))
        try d.send(.positionChanged(.a, position: 585))
        let out = try d.send(.loaded(d.lastLoad!, duration: 600))
        #expect(Self.crossfades(out).map(\.duration) == [10])
    }

    // MARK: A next item loading or loaded, not audible yet

    @Test func theSameNextItemIsKept() throws {
        var d = try Self.preloading()
        let out = try d.send(Self.upcoming(Fixture.stage2, Self.x))
        #expect(out.withoutTimers.isEmpty)
        #expect(d.state == .preparingCrossfade(currentTrack: Fixture.stage1, nextTrack: Fixture.stage2))
        // Its load still counts, and after it comes the new list.
        let armed = try d.send(.loaded(d.lastLoad!, duration: 600))
        #expect(Self.crossfades(armed).map(\.at) == [590])
        try d.send(.crossfadeStarted)
        try d.send(.crossfadeCompleted)
        try d.send(.positionChanged(.b, position: 585))
        #expect(d.state == .preparingCrossfade(currentTrack: Fixture.stage2, nextTrack: Self.x))
    }

    @Test func anArmedCrossfadeIsKeptWhenItsFadeIsTheSame() throws {
        var d = try Self.armed()
        let out = try d.send(Self.upcoming(Fixture.stage2, crossfade: CrossfadeSpec(duration: 10, curve: .equalPower)))
        #expect(out.withoutTimers.isEmpty)
    }

    @Test func anArmedCrossfadeIsArmedAgainWhenItsFadeChanged() throws {
        var d = try Self.armed()
        let out = try d.send(Self.upcoming(Fixture.stage2, crossfade: CrossfadeSpec(duration: 4, curve: .linear)))
        #expect(out.withoutTimers == [.scheduleCrossfade(from: .a, to: .b, duration: 4, curve: .linear, atPosition: 596)])
        #expect(d.state == .preparingCrossfade(currentTrack: Fixture.stage1, nextTrack: Fixture.stage2))
        try d.send(.crossfadeStarted)
        guard case .crossfading = d.state else {
            Issue.record("expected crossfading, got \(d.state.name)")
            return
        }
    }

    @Test func anotherNextItemIsDroppedAndTheNewOneLoads() throws {
        var d = try Self.armed()
        let old = d.lastLoad!
        let out = try d.send(Self.upcoming(Self.x))
        // The preload goes (its armed crossfade with its deck); past the loading point, the new one
        // loads at once on the same deck.
        #expect(out.withoutTimers.first == .unload(.b))
        #expect(Self.loads(out).map(\.0) == [.b] && Self.loads(out).map(\.1) == [Self.x])
        #expect(d.state == .preparingCrossfade(currentTrack: Fixture.stage1, nextTrack: Self.x))
        // A late answer for the dropped load changes nothing.
        #expect(try d.send(.loaded(old, duration: 600)).withoutTimers.isEmpty)
        let armed = try d.send(.loaded(d.lastLoad!, duration: 600))
        #expect(Self.crossfades(armed).map(\.at) == [590])
        try d.send(.crossfadeStarted)
        try d.send(.crossfadeCompleted)
        #expect(d.state == .playing(track: Self.x) && d.machine.currentItemIndex == 1)
    }

    @Test func theSameTrackFromAnotherPositionIsAnotherItem() throws {
        var d = try Self.preloading()
        let out = try d.send(.setUpcoming(UpcomingChange(items: [QueueItem(track: Fixture.stage2, startPosition: 30)])))
        #expect(out.withoutTimers.first == .unload(.b))
        guard case .load(_, .b, Fixture.stage2, 30)? = out.withoutTimers.last else {
            Issue.record("expected stage2 to load from 30 s, got \(out)")
            return
        }
    }

    @Test func aDroppedNextItemBeforeItsLoadingPointWaitsForIt() throws {
        // A long preload lead: stage2 loads from 190 s, the new next item (no crossfade) from 200 s.
        var d = Driver(PlayerStateMachine.Configuration(defaultCrossfade: CrossfadeSpec(duration: 10), preloadLead: 400))
        try d.send(.play(Fixture.request(Fixture.stage1, Fixture.stage2)))
        try d.send(.loaded(d.lastLoad!, duration: 600))
        try d.send(.positionChanged(.a, position: 195))
        #expect(d.state.name == .preparingCrossfade)
        let out = try d.send(Self.upcoming(Self.x, crossfade: CrossfadeSpec(duration: 0)))
        #expect(out.withoutTimers == [.unload(.b)])
        #expect(d.state == .playing(track: Fixture.stage1))
        #expect(Self.loads(try d.send(.positionChanged(.a, position: 199.9))).isEmpty)
        #expect(Self.loads(try d.send(.positionChanged(.a, position: 200.1))).map(\.1) == [Self.x])
    }

    @Test func droppingTheNextItemOfTheLastLeavesTheCurrentToEnd() throws {
        var d = try Self.preloading()
        let out = try d.send(Self.upcoming())
        #expect(out.withoutTimers == [.unload(.b)])
        #expect(d.state == .playing(track: Fixture.stage1))
        try d.send(.positionChanged(.a, position: 599.5))
        #expect(d.state.name == .fadingOut)
    }

    @Test func aSkipGoesOnToTheNewNextItem() throws {
        var d = try Driver.preparingCrossfade()
        let out = try d.send(Self.upcoming(Self.x))
        #expect(out.withoutTimers.first == .unload(.b))
        #expect(d.state == .preparingCrossfade(currentTrack: Fixture.stage1, nextTrack: Self.x))
        let armed = try d.send(.loaded(d.lastLoad!, duration: 600))
        // The skip's own short crossfade, now.
        #expect(Self.crossfades(armed).map(\.duration) == [2] && Self.crossfades(armed).map(\.at) == [nil])
    }

    @Test func aSkipWithNothingLeftEndsAsASkipPastTheLast() throws {
        var d = try Driver.preparingCrossfade()
        let out = try d.send(Self.upcoming())
        #expect(out.withoutTimers.contains(.unload(.b)) && out.withoutTimers.contains(.fadeOut(duration: 0.5)))
        #expect(d.state.name == .fadingOut)
    }

    // MARK: During a crossfade the incoming item is current

    @Test func duringACrossfadeTheIncomingItemIsCurrent() throws {
        var d = try Driver.crossfading()
        #expect(d.machine.currentItemIndex == 1)
        let out = try d.send(Self.upcoming(Self.x, crossfade: CrossfadeSpec(duration: 3)))
        #expect(out.withoutTimers.isEmpty)
        try d.send(.crossfadeCompleted)
        #expect(d.state == .playing(track: Fixture.stage2) && d.machine.currentItemIndex == 1)
        #expect(Self.loads(try d.send(.positionChanged(.b, position: 591))).isEmpty)
        #expect(Self.loads(try d.send(.positionChanged(.b, position: 592))).map(\.1) == [Self.x])
        let armed = try d.send(.loaded(d.lastLoad!, duration: 600))
        #expect(Self.crossfades(armed).map(\.duration) == [3] && Self.crossfades(armed).map(\.at) == [597])
    }

    @Test func duringAPausedCrossfadeTheIncomingItemIsCurrent() throws {
        var d = try Driver.crossfadePaused()
        let before = d.state
        let out = try d.send(Self.upcoming(Self.x))
        #expect(out.withoutTimers.isEmpty && d.state == before)
        try d.send(.resume)
        try d.send(.crossfadeCompleted)
        try d.send(.positionChanged(.b, position: 585))
        #expect(d.state == .preparingCrossfade(currentTrack: Fixture.stage2, nextTrack: Self.x))
    }

    @Test func anEmptyListDuringACrossfadeMakesTheIncomingItemTheLast() throws {
        var d = try Driver.crossfading()
        try d.send(Self.upcoming())
        try d.send(.crossfadeCompleted)
        let out = try d.send(.positionChanged(.b, position: 599.5))
        #expect(Self.loads(out).isEmpty && d.state.name == .fadingOut)
    }

    // MARK: Other states with a current item

    @Test func whilePausedTheNewListWaitsForPlayback() throws {
        var d = try Driver.playing(Fixture.stage1, Fixture.stage2)
        try d.send(.positionChanged(.a, position: 100))
        try d.send(.pause)
        #expect(try d.send(Self.upcoming(Self.x)).withoutTimers.isEmpty)
        try d.send(.resume)
        #expect(Self.loads(try d.send(.positionChanged(.a, position: 585))).map(\.1) == [Self.x])
    }

    @Test func whilePreparingTheNewListFollowsTheItemBeingOpened() throws {
        var d = Driver()
        try d.send(.play(Fixture.request(Fixture.stage1, Fixture.stage2)))
        try d.send(Self.upcoming(Self.y))
        try d.send(.loaded(d.lastLoad!, duration: 600))
        #expect(Self.loads(try d.send(.positionChanged(.a, position: 585))).map(\.1) == [Self.y])
    }

    // MARK: Which item is current

    @Test func identicalTracksAreToldApartByTheirIndex() throws {
        var d = try Driver.playing(Fixture.stage1, Fixture.stage2)
        #expect(d.machine.currentItemIndex == 0)
        try d.send(.positionChanged(.a, position: 585))
        #expect(d.machine.currentItemIndex == 0, "preparing the next is not playing it")
        try d.send(.loaded(d.lastLoad!, duration: 600))
        try d.send(.crossfadeStarted)
        #expect(d.machine.currentItemIndex == 1)
        // Items set while the second fades in count on from it: stage1 again is item 2.
        try d.send(Self.upcoming(Fixture.stage1))
        try d.send(.crossfadeCompleted)
        #expect(d.state == .playing(track: Fixture.stage2) && d.machine.currentItemIndex == 1)
        try d.send(.positionChanged(.b, position: 585))
        try d.send(.loaded(d.lastLoad!, duration: 600))
        try d.send(.crossfadeStarted)
        try d.send(.crossfadeCompleted)
        #expect(d.state == .playing(track: Fixture.stage1) && d.machine.currentItemIndex == 2)
    }

    @Test func anItemThatCannotLoadKeepsTheOthersIndices() throws {
        var d = try Driver.playing(Fixture.stage1, Fixture.stage2, Fixture.stage3)
        try d.send(.positionChanged(.a, position: 585))
        try d.send(.loadFailed(d.lastLoad!, PlaybackError(.corruptData), at: PlayerTime(seconds: 1)))
        #expect(d.state == .preparingCrossfade(currentTrack: Fixture.stage1, nextTrack: Fixture.stage3))
        try d.send(.loaded(d.lastLoad!, duration: 600))
        try d.send(.crossfadeStarted)
        #expect(d.machine.currentItemIndex == 2)
        // Items set now count on from stage3's index.
        try d.send(Self.upcoming(Self.x))
        try d.send(.crossfadeCompleted)
        try d.send(.positionChanged(.b, position: 585))
        try d.send(.loaded(d.lastLoad!, duration: 600))
        try d.send(.crossfadeStarted)
        // The state's current track is the outgoing one; the index is the incoming one's, as heard.
        #expect(d.state.nextTrack == Self.x && d.machine.currentItemIndex == 3)
    }
}
