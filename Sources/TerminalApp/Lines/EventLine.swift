import Foundation
import PlayerCore
import Presentation

/// `--events jsonl`: one JSON object per line for every `PlayerUpdate`. A public interface (status
/// bars and scripts read it), documented in docs/DEBUGGING.md; keys are sorted so lines are stable.
///
/// - `{"t": 12.5, "event": "state", "state": "crossfading", "from": {track}, "to": {track},
///   "progress": 0.47, "canQuickFinish": false}` — `t` is seconds on the audio clock; `state` is the
///   case name as in the code, with that case's associated values.
/// - `{"t": 12.5, "event": "position", "position": 3.2, "duration": 25.0, "speed": 1.5}` (duration
///   null when live; position and duration in media time, `speed` the rate the item plays at).
/// - `{"t": 12.5, "event": "notice", "notice": "trackFinished", "track": {track}}`.
/// - `{"t": 12.5, "event": "metadata", "title": "Song", "artist": "Band", "station": "Radio X",
///   "artwork": "real|station|default"}` — what a live stream says is playing (texts sanitised).
/// - `{"t": 0, "event": "volume", "volume": 0.5, "percent": 50}` — when the player starts, then
///   on every change.
/// - `{"t": 0, "event": "speed", "speed": 1.5}` — the speed of files and episodes, when the player
///   starts and on every change (live streams play at 1 whatever it says).
/// - `{"t": 3.1, "event": "sleepTimer", "sleep": "afterDuration", "sleepIn": 1200}` — on every
///   change (`sleep` is `afterDuration`, `endOfItem`, `endOfQueue` or null when cancelled or
///   over); while a timer is set, every state event carries `sleep` and `sleepIn` too.
/// - `{"t": 40.2, "event": "connection", "bitrate": 128, "buffered": 4.1, "reconnects": 1,
///   "stalls": 0, "reconnecting": false, "quality": "fair"}` — a live stream's connection, about
///   once a second while it plays and at once when a reconnect in the background begins or ends
///   (`bitrate` in kbit/s and `buffered` in seconds, null until known; `reconnects` and `stalls`
///   in the last hour; `quality` is `good`, `fair` or `poor`). While `reconnecting` is true the
///   state is still `playing`: the buffer plays while the stream is asked for again.
/// - `{"t": 0.3, "event": "chapters", "origin": "embedded", "chapters": [{"index": 0, "start": 0,
///   "end": 62.5, "title": "Intro"}]}` — the current item's chapters when they become known and
///   when the item changes (`chapters` empty: the new item has none; `origin` is `embedded`, the
///   file's own, or `feed`, the podcast's JSON chapters; `end` null when not given).
/// - `{"t": 62.6, "event": "chapter", "chapter": {"index": 1, "count": 3, "title": "Main"}}` —
///   when the position moves into another chapter (`chapter` null before the first). While an
///   item with chapters plays, every position and state event carries the same `chapter` field
///   (`index` from 0, `count`, `title` or null).
/// - `{"t": 0.4, "event": "transcript", "timed": true, "cues": 212}` — the current item's
///   transcript when it becomes known and when the item changes (`cues` 0 and `timed` null: the new
///   item has none; `podcast transcript` prints one whole).
/// - `{"t": 62.6, "event": "cue", "cue": {"index": 3, "start": 62.5, "end": 64.0, "text": "Welcome
///   back.", "speaker": "Alice"}}` — each line of a timed transcript as it is spoken (`cue` null
///   between lines; `speaker` null when not named): a listener who cannot hear reads along.
/// - `{"t": 300.0, "event": "layers", "elapsed": 300.0, "length": 1200, "remaining": 900,
///   "bed": {"phase": "ducked", "level": 0.151}, "nextBell": {"at": 600, "kind": "interval"},
///   "strikes": 2}` — a session's layers (its clock, which stops while paused; its bed's phase and
///   gain; the next bell, null when none is left): told before every state of such a session and
///   when they change, and `null` fields once it is over. While such a session plays, every state
///   event carries the same `layers` object.
/// - `{"t": 300.0, "event": "notice", "notice": "bell", "at": 300, "kind": "interval", "strike": 1,
///   "sessionTime": 300.0, "skipped": false, "audioTime": 300.0125}` — a bell struck (or a seek
///   jumped over it, `skipped`); `audioTime` is the audio clock at its very frame (0.1 ms), null
///   when skipped.
///
/// A track is `{"id", "kind", "title", "duration"}`, with `"artist"` and `"album"` when known (a
/// local file's tags), never its URL (which may carry credentials);
/// an error is `{"code", "type", "retryable", "recoverable", "message", "suggestion"}`.
package enum EventLine {
    /// - Parameters:
    ///   - sleep: the sleep timer as last published, for the state events' `sleepIn`.
    ///   - speed: the rate the current item plays at, for the position events.
    ///   - reconnecting: a reconnect in the background is under way (the last connection event
    ///     said so): a `playing` state event then carries `"reconnecting": true`.
    ///   - chapter: the chapter playing, as last published, for the position and state events.
    package static func json(
        for update: PlayerUpdate, language: Language = .current, sleep: SleepTimer? = nil, speed: Double = 1, reconnecting: Bool = false,
        chapter: ChapterPosition? = nil, layers: SessionLayersStatus? = nil
    ) -> String {
        var object = dictionary(for: update, language: language, sleep: sleep, speed: speed, reconnecting: reconnecting)
        if let chapter {
            switch update {
            case .position, .state: object["chapter"] = chapterFields(chapter)
            default: break
            }
        }
        if let layers, case .state = update { object["layers"] = layerFields(layers) }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return "{\"event\":\"error\"}"
        }
        return String(decoding: data, as: UTF8.self)
    }

    package static func dictionary(
        for update: PlayerUpdate, language: Language = .current, sleep: SleepTimer? = nil, speed: Double = 1, reconnecting: Bool = false
    ) -> [String: Any] {
        switch update {
        case .state(let state, let t, let now):
            var o = stateFields(state, now: now, language: language)
            if reconnecting, state.name == .playing { o["reconnecting"] = true }
            o["t"] = rounded(t)
            o["event"] = "state"
            if let sleep { o.merge(sleepFields(sleep, now: now)) { a, _ in a } }
            return o
        case .position(let seconds, let duration, let t):
            return [
                "t": rounded(t), "event": "position", "position": rounded(seconds), "duration": duration.map(rounded) ?? NSNull(),
                "speed": speed,
            ]
        case .notice(.metadata(let m), let t):
            return [
                "t": rounded(t), "event": "metadata", "title": m.title ?? NSNull(), "artist": m.artist ?? NSNull(),
                "station": m.station ?? NSNull(), "artwork": m.artwork.rawValue,
            ]
        case .notice(.chapters(let list), let t):
            return [
                "t": rounded(t), "event": "chapters", "origin": list?.origin.rawValue ?? NSNull(),
                "chapters": (list?.chapters ?? []).enumerated().map { index, chapter in
                    [
                        "index": index, "start": rounded(chapter.start), "end": chapter.end.map(rounded) ?? NSNull(),
                        "title": chapter.title ?? NSNull(),
                    ] as [String: Any]
                },
            ]
        case .notice(.chapter(let position), let t):
            return ["t": rounded(t), "event": "chapter", "chapter": position.map(chapterFields) ?? NSNull()]
        case .notice(.transcript(let transcript), let t):
            return ["t": rounded(t), "event": "transcript", "timed": transcript.map(\.timed) ?? NSNull(), "cues": transcript?.cues.count ?? 0]
        case .notice(.cue(let position), let t):
            return ["t": rounded(t), "event": "cue", "cue": position.map(cueFields) ?? NSNull()]
        case .notice(let notice, let t):
            var o = noticeFields(notice, language: language)
            o["t"] = rounded(t)
            o["event"] = "notice"
            return o
        case .volume(let volume, let t):
            return ["t": rounded(t), "event": "volume", "volume": volume.level, "percent": volume.percent]
        case .speed(let speed, let t):
            return ["t": rounded(t), "event": "speed", "speed": speed.rate]
        case .loudness(let levelling, let gain, let t):
            return [
                "t": rounded(t), "event": "loudness", "mode": levelling.mode.rawValue, "target": levelling.target,
                "gain": gain.map(rounded) ?? NSNull(),
            ]
        case .connection(let quality, let t):
            return [
                "t": rounded(t), "event": "connection", "bitrate": quality.bitrate ?? NSNull(),
                "buffered": quality.bufferedSeconds.map(rounded) ?? NSNull(), "reconnects": quality.reconnectsLastHour,
                "stalls": quality.stallsLastHour, "reconnecting": quality.reconnecting, "quality": quality.rating.rawValue,
            ]
        case .layers(let layers, let t):
            var o: [String: Any] = layers.map(layerFields) ?? [
                "elapsed": NSNull(), "length": NSNull(), "remaining": NSNull(), "bed": NSNull(), "nextBell": NSNull(), "strikes": NSNull(),
            ]
            o["t"] = rounded(t)
            o["event"] = "layers"
            return o
        case .sleepTimer(let timer, let t, let now):
            var o: [String: Any] = timer.map { sleepFields($0, now: now) } ?? ["sleep": NSNull(), "sleepIn": NSNull()]
            o["t"] = rounded(t)
            o["event"] = "sleepTimer"
            return o
        }
    }

    static func sleepFields(_ timer: SleepTimer, now: PlayerTime) -> [String: Any] {
        ["sleep": timer.ending.rawValue, "sleepIn": timer.remaining(at: now).map(rounded) ?? NSNull()]
    }

    static func stateFields(_ state: PlayerState, now: PlayerTime, language: Language) -> [String: Any] {
        var o: [String: Any] = ["state": state.name.rawValue]
        switch state {
        case .idle, .finished:
            break
        case .preparing(let t), .playing(let t):
            o["track"] = track(t)
        case .preparingCrossfade(let current, let next):
            o["track"] = track(current)
            o["next"] = track(next)
        case .seeking(let t, let from, let to):
            o["track"] = track(t)
            o["from"] = rounded(from)
            o["to"] = rounded(to)
        case .buffering(let t, let progress, let reason):
            o["track"] = track(t)
            o["progress"] = rounded(Double(progress))
            o["reason"] = reason.rawValue
        case .crossfading(let from, let to, let progress, let quick):
            o["from"] = track(from)
            o["to"] = track(to)
            o["progress"] = rounded(Double(progress))
            o["canQuickFinish"] = quick
        case .paused(let t, let position):
            o["track"] = track(t)
            o["position"] = rounded(position)
        case .crossfadePaused(let from, let to, let progress, let strategy, let s):
            o["from"] = track(from)
            o["to"] = track(to)
            o["progress"] = rounded(Double(progress))
            o["resumeStrategy"] = strategy.rawValue
            o["snapshot"] = [
                "activeVolume": rounded(Double(s.activeVolume)), "inactiveVolume": rounded(Double(s.inactiveVolume)),
                "activePosition": rounded(s.activePosition), "inactivePosition": rounded(s.inactivePosition),
                "activePlayer": s.activePlayer.rawValue, "originalDuration": rounded(s.originalDuration), "curve": s.curve.rawValue,
            ]
        case .fadingOut(let t, let duration):
            o["track"] = track(t)
            o["targetDuration"] = rounded(duration)
        case .reconnecting(let t, let attempt, let max, let at, let cause):
            o["track"] = track(t)
            o["attempt"] = attempt
            o["maxAttempts"] = max
            o["retryIn"] = at.map { rounded(Swift.max(0, $0.since(now))) } ?? NSNull()
            o["cause"] = error(cause, language: language)
        case .failed(let e, let recoverable, let point):
            o["error"] = error(e, language: language)
            o["recoverable"] = recoverable
            if let point {
                o["track"] = track(point.track)
                o["position"] = rounded(point.position)
                o["duration"] = point.duration.map(rounded) ?? NSNull()
            }
        }
        return o
    }

    static func noticeFields(_ notice: PlayerNotice, language: Language) -> [String: Any] {
        switch notice {
        case .nonFatal(let e): return ["notice": "nonFatal", "error": error(e, language: language)]
        case .recovered(let e, let how): return ["notice": "recovered", "error": error(e, language: language), "by": how.rawValue]
        case .keepsDropping(_, let drops, let within):
            return [
                "notice": "keepsDropping", "drops": drops, "withinSeconds": rounded(within),
                "text": Texts.format(UIString.keepsDropping, in: language, drops, Int((within / 60).rounded())),
            ]
        case .trackFinished(let t): return ["notice": "trackFinished", "track": track(t)]
        case .savePosition(let p): return ["notice": "savePosition", "track": track(p.track), "position": rounded(p.position)]
        case .routeChanged(.deviceRemoved(let name)):
            return ["notice": "routeChanged", "change": "deviceRemoved", "device": TextSanitizer.singleLine(name, maxLength: 128)]
        case .metadata(let m): return ["notice": "metadata", "title": m.title ?? NSNull()]
        case .serviceProblem(let e): return ["notice": "serviceProblem", "error": error(e, language: language)]
        case .silenceTrimmed(let t, let seconds): return ["notice": "silenceTrimmed", "track": track(t), "seconds": rounded(seconds)]
        case .chapters(let list): return ["notice": "chapters", "count": list?.count ?? 0]
        case .transcript(let transcript): return ["notice": "transcript", "cues": transcript?.cues.count ?? 0]
        case .cue(let position): return ["notice": "cue", "cue": position.map(cueFields) ?? NSNull()]
        case .chapter(let position): return ["notice": "chapter", "chapter": position.map(chapterFields) ?? NSNull()]
        case .currentItem(let index): return ["notice": "currentItem", "index": index]
        case .bell(let strike):
            return [
                "notice": "bell", "at": rounded(strike.cue.at), "kind": strike.cue.kind.rawValue, "strike": strike.strike,
                "sessionTime": rounded(strike.sessionTime), "skipped": strike.skipped,
                "audioTime": strike.audioTime.map { ($0 * 10_000).rounded() / 10_000 } ?? NSNull(),
            ]
        }
    }

    /// A session's layers: its clock, its bed, its next bell.
    static func layerFields(_ layers: SessionLayersStatus) -> [String: Any] {
        [
            "elapsed": rounded(layers.elapsed), "length": layers.length.map(rounded) ?? NSNull(),
            "remaining": layers.remaining.map(rounded) ?? NSNull(),
            "bed": layers.bed.map { ["phase": $0.phase.rawValue, "level": (Double($0.level) * 1000).rounded() / 1000] as [String: Any] }
                ?? NSNull(),
            "nextBell": layers.nextBell.map { ["at": rounded($0.at), "kind": $0.kind.rawValue] as [String: Any] } ?? NSNull(),
            "strikes": layers.strikesRung,
        ]
    }

    static func cueFields(_ position: TranscriptCuePosition) -> [String: Any] {
        [
            "index": position.index, "start": rounded(position.cue.start), "end": rounded(position.cue.end), "text": position.cue.text,
            "speaker": position.cue.speaker ?? NSNull(),
        ]
    }

    static func chapterFields(_ chapter: ChapterPosition) -> [String: Any] {
        ["index": chapter.index, "count": chapter.count, "title": chapter.title ?? NSNull()]
    }

    static func track(_ t: Track) -> [String: Any] {
        var fields: [String: Any] = [
            "id": t.id, "kind": t.kind.rawValue, "title": t.title ?? NSNull(), "duration": t.duration.map(rounded) ?? NSNull(),
        ]
        // Only when known, so a track without them reads as before.
        if let artist = t.artist { fields["artist"] = artist }
        if let album = t.album { fields["album"] = album }
        return fields
    }

    static func error(_ e: PlaybackError, language: Language) -> [String: Any] {
        let text = e.text(in: language)
        return [
            "code": e.code.rawValue, "type": e.errorType, "retryable": e.isRetryable, "recoverable": e.isRecoverable,
            "message": text.message, "suggestion": text.recoverySuggestion,
        ]
    }

    /// Millisecond precision keeps lines short and stable.
    static func rounded(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }
}
