import Foundation
import PlayerCore
import PropertyBased
import TestProcesses
import Testing

/// Random event sequences against the invariants of the machine. PropertyBased prints the seed of
/// a failing run (`.fixedSeed(...)`) and shrinks the sequence, so a failure reproduces exactly.
/// Off the cooperative pool: its thousands of random sequences are a minute of CPU in a debug
/// build, and on two cores they would hold both of the pool's threads while the players of the
/// radio tests wait for them.
@Suite("State machine properties", .blocking)
struct StateMachinePropertyTests {
    static let sequences = 10_000

    /// Each generated number becomes one event: the low bits choose the kind, the rest its details.
    static let eventKinds = 35

    static let pool: [Track] = [Fixture.stage1, Fixture.stage2, Fixture.episode("p"), Fixture.live("r"), Fixture.file("nodur", duration: nil)]

    /// Turns a number into an event that fits the driver's recent effects often enough to reach
    /// deep states, and is stale or out of place often enough to test refusals.
    static func event(_ n: Int, driver: Driver, clock: inout Double) -> PlayerEvent {
        let kind = n % eventKinds
        let p = n / eventKinds
        let deck: DeckID = p % 2 == 0 ? .a : .b
        let staleID = LoadID(UInt64(p % 3 + 1000))
        let load = p % 5 == 0 ? staleID : (driver.lastLoad ?? staleID)
        clock += Double(p % 40) / 4
        let now = PlayerTime(seconds: clock)
        let errors: [PlaybackError] = [
            PlaybackError(.connectionLost), PlaybackError(.connectionTimeout), PlaybackError(.httpNotFound, httpStatus: 404),
            PlaybackError(.corruptData), PlaybackError(.httpRetryable, httpStatus: 503, retryAfter: .seconds(3)),
            PlaybackError(.audioOutputLost), PlaybackError(.offline),
        ]
        let error = errors[p % errors.count]
        switch kind {
        case 0:
            let count = p % 3 + 1
            let items = (0..<count).map { i in QueueItem(track: pool[(p / 3 + i) % pool.count].with(id: "q\(i)-\(pool[(p / 3 + i) % pool.count].id)")) }
            return .play(PlayRequest(items: items, startPosition: Double(p % 100))!)
        case 1: return .cannotPlay(PlaybackError(.missingAudioURL))
        case 2: return .pause
        case 3: return .resume
        case 4: return .stop
        case 5: return .skip
        case 6: return .seek(to: Double(p % 700) - 20)
        case 7: return .retry
        case 8: return .reset
        case 9: return .retryNow
        case 10: return .cancelRetry
        case 11, 12: return .loaded(load, duration: p % 4 == 0 ? nil : Double(p % 900 + 1))
        case 13: return .loadFailed(load, error, at: now)
        case 14: return .bufferProgress(deck, fill: Float(p % 11) / 10)
        case 15: return .underrun(deck)
        case 16: return .refilled(deck)
        case 17, 18: return .positionChanged(deck, position: Double(p % 1000))
        case 19: return .crossfadeStarted
        case 20: return .crossfadeProgress(Float(p % 12) / 10, fromPosition: Double(p % 50), toPosition: Double(p % 7))
        case 21: return .crossfadeCompleted
        case 22: return .fadeOutCompleted
        case 23: return .trackEnded(deck, at: now)
        case 24: return .streamDropped(deck, cause: error, at: now)
        case 25: return .stalled(deck, at: now)
        case 26: return .errorOccurred(p % 3 == 0 ? nil : deck, error, at: now)
        case 27:
            let due = driver.lastScheduledRetry
            return .timerFired(.retry(attempt: due?.attempt ?? 1), at: due?.at ?? now)
        case 28: return .connectivityChanged(online: p % 2 == 0, at: now)
        case 30:
            return p % 4 == 0
                ? .replace(.cannotPlay(PlaybackError(.missingAudioURL)))
                : .replace(.play(PlayRequest(track: pool[p % pool.count].with(id: "r\(p)"), startPosition: Double(p % 50))))
        case 31:
            let requests: [SleepRequest] = [.after(Double(p % 90 + 1)), .endOfItem, .endOfQueue, .extend(by: 30), .cancel, .cycle]
            return .setSleepTimer(requests[p % requests.count])
        case 32:
            return .timerFired(.sleep, at: driver.machine.sleepTimer?.deadline ?? now)
        case 33: return .playlistUnchanged(deck, loads: p % 7, at: now)
        case 34:
            // Often the next item already loading first (kept), otherwise others or none.
            let count = p % 3
            var items = (0..<count).map { i in QueueItem(track: pool[(p / 3 + i) % pool.count].with(id: "u\(i)-\(pool[(p / 3 + i) % pool.count].id)")) }
            if p % 2 == 0, let next = driver.state.nextTrack { items.insert(QueueItem(track: next), at: 0) }
            return .setUpcoming(UpcomingChange(items: items, crossfadeFromCurrent: p % 3 == 0 ? nil : CrossfadeSpec(duration: Double(p % 7))))
        default: return p % 2 == 0 ? .outputLost(at: now) : .outputRestored
        }
    }

    @Test func invariantsHoldForRandomEventSequences() async {
        await propertyCheck(count: Self.sequences, input: Gen.int(in: 0...1_000_000).array(of: 1...60)) { numbers in
            var driver = Driver(Fixture.config(crossfade: 10), seed: UInt64(numbers.count))
            var clock = 0.0
            for n in numbers {
                let event = Self.event(n, driver: driver, clock: &clock)
                let before = driver.state
                let wasLive = before.currentTrack?.isLive ?? false
                do {
                    try driver.send(event)
                    if let action = event.action {
                        #expect(before.allows(action), "accepted \(action) in \(before.name)")
                    }
                } catch {
                    // Only intents may be refused, only when not allowed, and nothing may change.
                    #expect(event.action != nil, "fact \(event) was refused in \(before.name): \(error)")
                    if let action = event.action { #expect(!before.allows(action), "refused allowed \(action) in \(before.name)") }
                    #expect(PlaybackError.from(error).code == .invalidTransition)
                    #expect(driver.state == before)
                }
                let after = driver.state
                #expect(after.isValid, "invalid state \(after) after \(event)")
                // The sleep countdown runs exactly while something sounds.
                if let timer = driver.machine.sleepTimer {
                    let sounding = [.playing, .preparingCrossfade, .crossfading].contains(after.name)
                    #expect((timer.runningSince != nil) == sounding, "sleep countdown \(timer) in \(after.name) after \(event)")
                }
                if after != before || after.name != before.name {
                    #expect(before.canTransition(to: after), "\(before.name) -> \(after.name) on \(event)")
                }
                // Which item is current is known exactly while something is current.
                #expect(
                    (driver.machine.currentItemIndex == nil) == [.idle, .finished, .failed].contains(after.name),
                    "current item index \(String(describing: driver.machine.currentItemIndex)) in \(after.name) after \(event)")
                if case .setUpcoming = event {
                    // The current item plays on; only a next item not audible yet may go.
                    #expect(after.currentTrack == before.currentTrack, "setUpcoming changed the current item: \(before) -> \(after)")
                    // (A next item whose loading point has passed loads at once.)
                    let allowed: [PlayerState.Name] =
                        switch before.name {
                        case .preparingCrossfade: [.preparingCrossfade, .playing, .fadingOut]
                        case .playing: [.playing, .preparingCrossfade]
                        default: [before.name]
                        }
                    #expect(allowed.contains(after.name), "setUpcoming: \(before.name) -> \(after.name)")
                    if [.idle, .finished, .failed].contains(before.name) { #expect(after == before) }
                }
                // A live stream never reaches `finished` because its connection ended (only a stop the
                // user asked for, already fading out, may end it).
                switch event {
                case .trackEnded, .streamDropped, .stalled, .playlistUnchanged, .errorOccurred, .loadFailed:
                    if wasLive && before.name != .fadingOut {
                        #expect(after.name != .finished, "live stream finished on \(event)")
                    }
                default:
                    break
                }
                if Task.isCancelled { return }
            }
        }
    }

    @Test func allowedActionsAreExactlyWhatTheMachineAccepts() throws {
        // Every state reachable by the fixtures: each action is accepted iff it is allowed.
        let starts: [Driver] = try [
            Driver(), Driver.playing(Fixture.stage1), Driver.live(), Driver.preparingCrossfade(), Driver.crossfading(),
            Driver.paused(), Driver.crossfadePaused(), Driver.buffering(), Driver.reconnecting(), Driver.fadingOut(),
            Driver.finished(), Driver.failedRecoverable(), Driver.failedFinal(),
        ]
        for start in starts {
            for action in PlayerAction.allCases {
                var d = start
                let accepted = (try? d.send(IntentRejectionTests.intent(action))) != nil
                #expect(accepted == start.state.allows(action), "\(action) in \(start.state.name)")
            }
        }
    }
}
