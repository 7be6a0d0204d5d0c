import Logging
import PlayerCore

/// What the player writes to its injected `Logger`, kept out of `AudioPlayer` so the actor only
/// says where something happened and this type decides how it is told.
///
/// Levels, chosen so a listener's log at the default `warning` holds only failures, and a `debug`
/// log replays the machine:
/// - `trace`: high-frequency facts (positions, fill, crossfade progress) with their effects.
/// - `debug`: every other event the machine handled, the effects it returned (one record each) and
///   the state it left; a refused user intent.
/// - `info`: each change of state, by name only.
/// - `notice`: a network track connected, a reconnect scheduled (attempt and delay), a recovery.
/// - `warning`: a fault reaching the player as a fact (load failure, drop, lost output), a
///   connection the machine gave up as stalled, a problem of a service beside playback, a
///   non-fatal skip.
/// - `error`: playback failed, or gave up reconnecting; the machine refused one of its own facts.
///
/// Privacy: records above `debug` carry no title, URL or path: a host at most, and an error's
/// `underlying` with URLs stripped to `scheme://host/path` and paths replaced (`LogRedaction`).
struct PlayerLog: Sendable {
    let logger: Logger

    /// One event the machine handled, with the effects it returned and the state it left.
    func handled(_ event: PlayerEvent, effects: [PlayerEffect], state: PlayerState, now: Double) {
        let level: Logger.Level = LogFields.isHighFrequency(event) ? .trace : .debug
        logger.log(
            level: level, "event",
            metadata: Self.metadata(LogFields.event(event), ["effects": LogFields.effectNames(effects), "state": state.name.rawValue]))
        if logger.logLevel <= level {
            for effect in effects { logger.log(level: level, "effect", metadata: Self.metadata(LogFields.effect(effect))) }
        }
        if let fault = Self.fault(in: event) {
            logger.warning("playback fault", metadata: Self.metadata(fault, ["event": LogFields.caseName(event)]))
        }
        for effect in effects {
            switch effect {
            case .scheduleTimer(.retry(let attempt), let at):
                var fields = ["attempt": String(attempt), "inSeconds": LogFields.seconds(max(0, at.seconds - now))]
                if case .reconnecting(_, _, let maxAttempts, _, let cause) = state {
                    fields["maxAttempts"] = String(maxAttempts)
                    fields["cause"] = cause.errorType
                }
                logger.notice("reconnect scheduled", metadata: Self.metadata(fields))
            case .recovered(let error, let how):
                logger.notice("recovered", metadata: Self.metadata(["errorType": error.errorType, "by": how.rawValue]))
            case .reportNonFatal(let error):
                logger.warning("non-fatal problem", metadata: Self.metadata(LogFields.error(error)))
            case .warnKeepsDropping(_, let drops):
                logger.warning(
                    "stream keeps dropping; the listener is told", metadata: Self.metadata(["drops": String(drops), "withinSeconds": LogFields.seconds(DropWarning.window)]))
            case .reopenConnection(let deck):
                logger.notice("reconnecting while the buffer plays", metadata: Self.metadata(["deck": deck.rawValue]))
            case .reconnectingInBackground(let on) where !on:
                logger.info("reconnect in the background over")
            case .abandonConnection(let deck, let cause):
                logger.warning("connection given up", metadata: Self.metadata(LogFields.error(cause), ["deck": deck.rawValue]))
            default:
                break
            }
        }
    }

    /// The machine refused an event: a user intent not allowed now (debug), or one of the engine's
    /// own facts (an inconsistency worth an error record).
    func refused(_ event: PlayerEvent, error: PlaybackError) {
        let level: Logger.Level = !event.isIntent ? .error : .debug
        logger.log(level: level, "event refused", metadata: Self.metadata(LogFields.error(error), ["event": LogFields.caseName(event)]))
    }

    /// A published state; records only changes of its name.
    func stateChanged(from previous: PlayerState?, to state: PlayerState) {
        guard previous?.name != state.name else { return }
        logger.info("state", metadata: ["state": "\(state.name.rawValue)", "from": "\(previous?.name.rawValue ?? "none")"])
        switch state {
        case .failed(let error, let recoverable, _):
            // An error the engine retries by itself ends here only when its retries ran out.
            let gaveUp = error.isRetryable || previous?.name == .reconnecting
            logger.error(
                gaveUp ? "reconnect given up" : "playback failed",
                metadata: Self.metadata(LogFields.error(error), ["recoverable": String(recoverable)]))
        case .playing(let track), .buffering(let track, _, _):
            if track.isRemote, previous?.name == .preparing {
                logger.notice("connected", metadata: Self.metadata(["host": LogRedaction.host(track.url) ?? "?", "kind": track.kind.rawValue]))
            }
        default:
            break
        }
    }

    /// A service beside playback failed (artwork, a status API); playback goes on.
    /// Chapters were found for the item loading: how many and from where, never their titles.
    func chapters(_ list: ChapterList) {
        logger.info("chapters", metadata: Self.metadata(["count": String(list.count), "origin": list.origin.rawValue]))
    }

    /// An item's chapters document could not be had: it plays without chapters.
    func chaptersUnavailable(_ error: PlaybackError) {
        logger.notice("chapters unavailable; playing without them", metadata: Self.metadata(LogFields.error(error)))
    }

    func transcript(cues: Int, timed: Bool) {
        logger.info("transcript", metadata: Self.metadata(["cues": String(cues), "timed": String(timed)]))
    }

    /// An item's transcript could not be had: it plays without one.
    func transcriptUnavailable(_ error: PlaybackError) {
        logger.notice("transcript unavailable; playing without it", metadata: Self.metadata(LogFields.error(error)))
    }

    func serviceProblem(_ error: PlaybackError) {
        logger.warning("service problem", metadata: Self.metadata(LogFields.error(error)))
    }

    /// The failure an event reports, if it is one; an abandoned load (`cancelled`) is not.
    /// A track's loudness was measured (or heard whole): kind and figures only, no title or path.
    func loudness(_ loudness: Loudness, of track: Track) {
        logger.info(
            "loudness measured",
            metadata: Self.metadata(["kind": track.kind.rawValue, "lufs": String(loudness.integrated), "source": loudness.source.rawValue]))
    }

    /// A file could not be measured: it goes on being levelled adaptively.
    func loudnessNotMeasured(_ track: Track, error: PlaybackError) {
        logger.warning("loudness not measured", metadata: Self.metadata(LogFields.error(error), ["kind": track.kind.rawValue]))
    }

    private static func fault(in event: PlayerEvent) -> [String: String]? {
        switch event {
        case .loadFailed(_, let error, _), .streamDropped(_, let error, _), .errorOccurred(_, let error, _), .cannotPlay(let error):
            return error.code == .cancelled ? nil : LogFields.error(error)
        case .outputLost:
            return [:]
        case .timerFired(.openingTimeout, _), .timerFired(.underrunTimeout, _):
            return ["timer": "bufferingTimeout"]
        default:
            return nil
        }
    }

    static func metadata(_ fields: [String: String], _ more: [String: String] = [:]) -> Logger.Metadata {
        var metadata = Logger.Metadata()
        for (key, value) in fields { metadata[key] = .string(value) }
        for (key, value) in more { metadata[key] = .string(value) }
        return metadata
    }
}
