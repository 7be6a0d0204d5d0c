import Foundation
import PlayerCore
import Presentation
import Testing

/// An intent the state does not allow is refused with a typed error and changes nothing.
@Suite("Refused intents")
struct IntentRejectionTests {
    static let samples: [(String, @Sendable () throws -> Driver)] = [
        ("idle", { Driver() }),
        ("preparing", { var d = Driver(); try d.send(.play(Fixture.request(Fixture.stage1))); return d }),
        ("playing", { try Driver.playing(Fixture.stage1) }),
        ("playing live", { try Driver.live() }),
        ("preparingCrossfade", { try Driver.preparingCrossfade() }),
        ("crossfading", { try Driver.crossfading() }),
        ("paused", { try Driver.paused() }),
        ("crossfadePaused", { try Driver.crossfadePaused() }),
        ("buffering", { try Driver.buffering() }),
        ("reconnecting", { try Driver.reconnecting() }),
        ("fadingOut", { try Driver.fadingOut() }),
        ("finished", { try Driver.finished() }),
        ("failed recoverable", { try Driver.failedRecoverable() }),
        ("failed final", { try Driver.failedFinal() }),
    ]

    static func intent(_ action: PlayerAction) -> PlayerEvent {
        switch action {
        case .play: .play(Fixture.request(Fixture.stage2))
        case .pause: .pause
        case .resume: .resume
        case .stop: .stop
        case .skip: .skip
        case .seek: .seek(to: 5)
        case .retry: .retry
        case .reset: .reset
        case .retryNow: .retryNow
        case .cancelRetry: .cancelRetry
        }
    }

    @Test(arguments: samples.map(\.0))
    func disallowedIntentsAreRefusedAndChangeNothing(_ label: String) throws {
        let make = Self.samples.first { $0.0 == label }!.1
        let start = try make()
        for action in PlayerAction.allCases where !start.state.allows(action) {
            var d = start
            let before = d.state
            #expect(throws: PlaybackError.invalidTransition(action, in: before.name)) {
                try d.send(Self.intent(action))
            }
            #expect(d.state == before, "\(label): \(action) changed the state")
            #expect(d.effects == start.effects, "\(label): \(action) produced effects")
        }
    }

    @Test(arguments: samples.map(\.0))
    func allowedIntentsAreAccepted(_ label: String) throws {
        let make = Self.samples.first { $0.0 == label }!.1
        let start = try make()
        for action in start.state.allowedActions {
            var d = start
            _ = try d.send(Self.intent(action))
            #expect(d.state.isValid, "\(label): \(action) led to an invalid state")
        }
    }

    @Test func refusalIsTypedAndExplained() throws {
        var d = try Driver.fadingOut()
        do {
            try d.send(.pause)
            Issue.record("pause during fadingOut was accepted")
        } catch {
            #expect(error.code == .invalidTransition)
            #expect(error.rejectedAction == .pause)
            #expect(error.rejectedState == .fadingOut)
            #expect(!error.isRecoverable)
            #expect(!error.message(in: .english).isEmpty)
        }
    }

    @Test func seekIsRefusedOnLiveStreams() throws {
        var d = try Driver.live()
        #expect(!d.state.allows(.seek))
        #expect(throws: PlaybackError.self) { try d.send(.seek(to: 10)) }
    }

    @Test func staleFactsChangeNothing() throws {
        var d = try Driver.playing(Fixture.stage1)
        let before = d.state
        // A late answer to a load that was never made, progress with no crossfade, output back
        // when it never left: all ignored.
        #expect(try d.send(.loaded(LoadID(999), duration: 1)).isEmpty)
        #expect(try d.send(.crossfadeProgress(0.5, fromPosition: 1, toPosition: 1)).isEmpty)
        #expect(try d.send(.crossfadeCompleted).isEmpty)
        #expect(try d.send(.fadeOutCompleted).isEmpty)
        #expect(try d.send(.timerFired(.retry(attempt: 1), at: .zero)).isEmpty)
        #expect(try d.send(.refilled(.a)).isEmpty)
        #expect(try d.send(.positionChanged(.b, position: 3)).isEmpty)
        #expect(d.state == before)
    }
}
