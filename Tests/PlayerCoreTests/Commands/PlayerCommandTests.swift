import Foundation
import PlayerCore
import Testing

/// The one mapping from a front end's command to an intent: the first intent the state allows,
/// and nothing when it allows none.
@Suite("Front-end commands")
struct PlayerCommandTests {
    static func state(_ label: String) throws -> PlayerState {
        try IntentRejectionTests.samples.first { $0.0 == label }!.1().state
    }

    @Test func playPauseTogglesAndRetriesARecoverableFailure() throws {
        #expect(PlayerCommand.playPause.intent(in: try Self.state("playing"), position: 3) == .pause)
        #expect(PlayerCommand.playPause.intent(in: try Self.state("paused"), position: 3) == .resume)
        #expect(PlayerCommand.playPause.intent(in: try Self.state("failed recoverable"), position: nil) == .retry)
        #expect(PlayerCommand.playPause.intent(in: try Self.state("failed final"), position: nil) == nil)
        #expect(PlayerCommand.playPause.intent(in: .idle, position: nil) == nil)
        #expect(PlayerCommand.playPause.intent(in: try Self.state("reconnecting"), position: nil) == .pause)
    }

    @Test func playNeverPauses() throws {
        #expect(PlayerCommand.play.intent(in: try Self.state("playing"), position: 3) == nil)
        #expect(PlayerCommand.play.intent(in: try Self.state("crossfadePaused"), position: 3) == .resume)
        #expect(PlayerCommand.play.intent(in: try Self.state("failed recoverable"), position: nil) == .retry)
    }

    @Test func retryMeansRetryNowDuringACountdown() throws {
        #expect(PlayerCommand.retry.intent(in: try Self.state("reconnecting"), position: nil) == .retryNow)
        #expect(PlayerCommand.retry.intent(in: try Self.state("failed recoverable"), position: nil) == .retry)
        #expect(PlayerCommand.retry.intent(in: try Self.state("playing"), position: nil) == nil)
        #expect(PlayerCommand.cancelRetry.intent(in: try Self.state("reconnecting"), position: nil) == .cancelRetry)
    }

    @Test func seeksAreRelativeToThePositionAndNeverBeforeTheStart() throws {
        let playing = try Self.state("playing")
        #expect(PlayerCommand.seekBy(30).intent(in: playing, position: 40) == .seek(to: 70))
        #expect(PlayerCommand.seekBy(-15).intent(in: playing, position: 10) == .seek(to: 0))
        #expect(PlayerCommand.seekTo(12).intent(in: playing, position: 40) == .seek(to: 12))
        #expect(PlayerCommand.seekTo(-1).intent(in: playing, position: 40) == nil)
        #expect(PlayerCommand.seekBy(30).intent(in: try Self.state("playing live"), position: 40) == nil)
    }

    /// Whatever the state, a command yields an intent the state accepts, or nothing: a front end
    /// built on this mapping cannot send a refused intent.
    @Test(arguments: IntentRejectionTests.samples.map(\.0))
    func everyIntentACommandYieldsIsAccepted(_ label: String) throws {
        let start = try IntentRejectionTests.samples.first { $0.0 == label }!.1()
        let commands: [PlayerCommand] = [
            .playPause, .play, .pause, .stop, .next, .retry, .retryNow, .cancelRetry, .reset, .seekBy(-15), .seekBy(30), .seekTo(5),
            .open(.play(Fixture.request(Fixture.stage2))),
        ]
        for command in commands {
            guard let intent = command.intent(in: start.state, position: 20) else {
                if let action = [PlayerAction.pause, .resume, .stop].first(where: { $0 == command.action }) {
                    #expect(!start.state.allows(action), "\(label): \(command) ignored although \(action) is allowed")
                }
                continue
            }
            var d = start
            #expect(throws: Never.self, "\(label): \(command)") { try d.send(intent) }
        }
    }
}
