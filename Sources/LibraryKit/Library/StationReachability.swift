import Foundation
import Library
import Logging
import PlayerCore
import PlayerKit
import Synchronization

/// Retries that learn, for the library's stations: every start of one (`station:ID` tracks) is a
/// run the library remembers, succeeded when it is first heard (with the tries it took) or failed
/// when the player gives up before that; and a station whose runs keep failing, as
/// `LearnedRetryRule` judges, gets one try instead of the whole reconnect backoff
/// (`QueueItem.triesOnce`). Front ends feed it every player update and pass their requests
/// through `prepared`; a station that answers again is back to the usual retries at once.
package final class StationReachability: Sendable {
    private let store: LibraryStore
    private let rule: LearnedRetryRule
    private let now: @Sendable () -> Date
    private let logger: Logger

    /// The start being watched: which station, how many tries so far, whether it has ended.
    private struct Run {
        var stationID: Int64
        var url: URL
        var tries = 1
    }

    private let run = Mutex<Run?>(nil)

    package init(store: LibraryStore, rule: LearnedRetryRule, now: @escaping @Sendable () -> Date = { Date() }, logger: Logger) {
        self.store = store
        self.rule = rule
        self.now = now
        self.logger = logger
    }

    /// The library station a track plays, from its id (`station:12`); nil for anything else.
    package static func stationID(of track: Track) -> Int64? {
        guard track.id.hasPrefix("station:") else { return nil }
        return Int64(track.id.dropFirst("station:".count))
    }

    /// What to do with the listener's next start of `stationID` (never skipped: they asked).
    package func decision(for stationID: Int64) -> LearnedRetryDecision {
        do throws(PlaybackError) {
            return rule.decide(try store.reachability(.station(stationID: stationID)), now: now(), automatic: false)
        } catch {
            logger.failure(error, "station reachability not read", fields: [:])
            return .retryAsUsual
        }
    }

    /// `replacement` with every usually unreachable station marked to be tried once.
    package func prepared(_ replacement: PlayerEvent.Replacement) -> PlayerEvent.Replacement {
        guard case .play(let request) = replacement else { return replacement }
        return .play(prepared(request))
    }

    package func prepared(_ request: PlayRequest) -> PlayRequest {
        let items = request.items.map { item -> QueueItem in
            guard let id = Self.stationID(of: item.track), case .tryOnce(let since) = decision(for: id) else { return item }
            logger.notice("station usually unreachable: one try", metadata: ["station": "\(id)", "since": "\(since.formatted(.iso8601))"])
            return QueueItem(
                track: item.track, crossfadeIntoNext: item.crossfadeIntoNext, startPosition: item.startPosition, isVoice: item.isVoice,
                triesOnce: true)
        }
        return PlayRequest(items: items, startPosition: request.startPosition, layers: request.layers) ?? request
    }

    /// Feeds one player update (every one, in order).
    package func observe(_ update: PlayerUpdate) {
        guard case .state(let state, _, _) = update else { return }
        let ended: (Run, RunEnding)? = run.withLock { run in
            switch state {
            case .preparing(let track), .preparingCrossfade(_, let track):
                // A start begins; anything else starting ends the watch without a lesson.
                run = Self.stationID(of: track).map { Run(stationID: $0, url: track.url) }
                return nil
            case .reconnecting(let track, let attempt, _, _, _):
                if let current = run, Self.stationID(of: track) == current.stationID { run?.tries = max(current.tries, attempt + 1) }
                return nil
            case .playing(let track), .crossfading(_, let track, _, _):
                guard let current = run, Self.stationID(of: track) == current.stationID else { return nil }
                run = nil
                return (current, .succeeded(tries: current.tries))
            case .failed(let error, _, _):
                guard let current = run else { return nil }
                run = nil
                // The listener's network or the machine failing says nothing about the station.
                return RunEnding(failure: error).map { (current, $0) }
            case .idle, .finished:
                run = nil
                return nil
            default:
                return nil
            }
        }
        guard let (finished, ending) = ended else { return }
        let hostClass = HostCircuitBreakers.host(of: finished.url).map(HostClass.init(breakerKey:)) ?? .internet
        do throws(PlaybackError) {
            let record = try store.recordRun(.station(stationID: finished.stationID), hostClass: hostClass, ending: ending, at: now())
            if case .failed = ending, rule.decide(record, now: now(), automatic: false) != .retryAsUsual {
                logger.notice(
                    "station usually unreachable",
                    metadata: ["station": "\(finished.stationID)", "failedRuns": "\(record.consecutiveFailures)", "hostClass": "\(hostClass.rawValue)"])
            }
        } catch {
            logger.failure(error, "station reachability not recorded", fields: [:])
        }
    }
}
