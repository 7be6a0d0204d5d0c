import Foundation

/// How the player's values are written into log records: a short name and flat string fields.
///
/// Why not `String(describing:)`: a `Track` inside an event or effect carries its URL (with any
/// credentials or token in it) and its title, and a derived description would print both. These
/// descriptions name the case and add only fields that are safe at the level they are meant for:
/// event and effect fields are for `debug` (a track appears as its id, kind and redacted URL, never
/// its title); error fields are safe at every level when `keepPaths` is false.
package enum LogFields {
    /// The fields that explain an error in a report: its stable code, low-cardinality type, HTTP
    /// status and the original error's text (redacted: URLs without secrets, paths only with `keepPaths`).
    package static func error(_ error: PlaybackError, keepPaths: Bool = false) -> [String: String] {
        var fields = ["code": String(error.code.rawValue), "errorType": error.errorType]
        if let status = error.httpStatus { fields["httpStatus"] = String(status) }
        if let underlying = error.underlying { fields["underlying"] = LogRedaction.text(underlying, keepPaths: keepPaths) }
        if let action = error.rejectedAction { fields["rejectedAction"] = action.rawValue }
        if let state = error.rejectedState { fields["rejectedState"] = state.rawValue }
        return fields
    }

    /// A track for `debug` records: id, kind and the URL without user info, query or fragment.
    /// The id passes the same redaction (an id may be built from a file name).
    package static func track(_ track: Track, prefix: String = "track") -> [String: String] {
        [
            "\(prefix).id": LogRedaction.text(track.id, keepPaths: true),
            "\(prefix).kind": track.kind.rawValue,
            "\(prefix).url": LogRedaction.url(track.url, keepPaths: true),
        ]
    }

    /// The case name of `value`, for enums whose cases carry payloads: read from the reflected
    /// case label, so a case added later is still named without its payload being printed.
    package static func caseName<T>(_ value: T) -> String {
        if let label = Mirror(reflecting: value).children.first?.label { return label }
        // A case without payload describes itself by its name alone.
        let described = String(describing: value)
        return described.prefix { $0 != "(" }.description
    }

    /// Events that arrive many times a second (positions, fill, crossfade progress): written at
    /// `trace` so a `debug` log of an hour's listening stays small enough to send.
    package static func isHighFrequency(_ event: PlayerEvent) -> Bool {
        switch event {
        case .positionChanged, .bufferProgress, .crossfadeProgress: true
        // A live stream's source runs dry between most packets.
        case .stalled, .receiving: true
        default: false
        }
    }

    /// Fields of an event for `debug` records.
    package static func event(_ event: PlayerEvent) -> [String: String] {
        var fields = ["event": caseName(event)]
        switch event {
        case .play(let request), .replace(.play(let request)):
            fields["items"] = String(request.items.count)
            fields["startPosition"] = seconds(request.startPosition)
            if let first = request.items.first { fields.merge(track(first.track)) { a, _ in a } }
        case .cannotPlay(let error), .replace(.cannotPlay(let error)):
            fields.merge(Self.error(error, keepPaths: true)) { a, _ in a }
        case .seek(let to):
            fields["to"] = seconds(to)
        case .setVolume(.to(let volume)):
            fields["volume"] = volume.description
        case .setVolume(.by(let delta)):
            fields["volumeBy"] = String(format: "%+.2f", delta)
        case .setSleepTimer(let request):
            fields.merge(sleep(request)) { a, _ in a }
        case .setSilenceTrimming(let on):
            fields["trimSilence"] = String(on)
        case .setLoudness(let levelling):
            fields["loudness"] = levelling.description
        case .setSpeed(.to(let speed)):
            fields["speed"] = speed.description
        case .setSpeed(.by(let delta)):
            fields["speedBy"] = String(format: "%+.2f", delta)
        case .loaded(let id, let duration):
            fields["load"] = id.description
            if let duration { fields["duration"] = seconds(duration) }
        case .loadFailed(let id, let error, _):
            fields["load"] = id.description
            fields.merge(Self.error(error, keepPaths: true)) { a, _ in a }
        case .underrun(let node), .refilled(let node), .stalled(let node, _), .receiving(let node, _), .trackEnded(let node, _):
            fields["deck"] = node.rawValue
        case .bufferProgress(let node, let fill):
            fields["deck"] = node.rawValue
            fields["fill"] = String(format: "%.2f", fill)
        case .positionChanged(let node, let position):
            fields["deck"] = node.rawValue
            fields["position"] = seconds(position)
        case .crossfadeProgress(let progress, let from, let to):
            fields["progress"] = String(format: "%.3f", progress)
            fields["fromPosition"] = seconds(from)
            fields["toPosition"] = seconds(to)
        case .playlistUnchanged(let node, let loads, _):
            fields["deck"] = node.rawValue
            fields["loads"] = String(loads)
        case .streamDropped(let node, let cause, _):
            fields["deck"] = node.rawValue
            fields.merge(Self.error(cause, keepPaths: true)) { a, _ in a }
        case .errorOccurred(let node, let error, _):
            if let node { fields["deck"] = node.rawValue }
            fields.merge(Self.error(error, keepPaths: true)) { a, _ in a }
        case .timerFired(let timer, _):
            fields.merge(Self.timer(timer)) { a, _ in a }
        case .connectivityChanged(let online, _):
            fields["online"] = String(online)
        case .layersProgress(let time, let bed):
            fields["sessionTime"] = seconds(time)
            if let bed {
                fields["bed"] = bed.phase.rawValue
                fields["bedLevel"] = String(format: "%.3f", bed.level)
            }
        case .bellStruck(let cue, let strike, let time, _):
            fields["bellAt"] = seconds(cue.at)
            fields["strike"] = String(strike)
            fields["sessionTime"] = seconds(time)
        case .sessionClockJumped(let from, let to):
            fields["from"] = seconds(from)
            fields["to"] = seconds(to)
        default:
            break
        }
        if let instant = event.instant { fields["at"] = seconds(instant.seconds) }
        return fields
    }

    /// Fields of a timer: its kind, and the attempt or load it belongs to.
    static func sleep(_ request: SleepRequest) -> [String: String] {
        switch request {
        case .after(let s): ["sleep": "after", "sleepSeconds": seconds(s)]
        case .clip(let s): ["sleep": "clip", "sleepSeconds": seconds(s)]
        case .endOfItem: ["sleep": "endOfItem"]
        case .endOfQueue: ["sleep": "endOfQueue"]
        case .extend(let s): ["sleep": "extend", "sleepSeconds": seconds(s)]
        case .cancel: ["sleep": "cancel"]
        case .cycle: ["sleep": "cycle"]
        }
    }

    static func timer(_ timer: PlayerTimer) -> [String: String] {
        var fields = ["timer": caseName(timer)]
        switch timer {
        case .retry(let attempt), .backgroundReconnect(let attempt): fields["attempt"] = String(attempt)
        case .stillConnecting(let id), .openingTimeout(let id): fields["load"] = id.description
        case .underrunTimeout, .starvationCheck, .stallCheck, .sleep: break
        }
        return fields
    }

    /// Fields of one effect for `debug` records.
    package static func effect(_ effect: PlayerEffect) -> [String: String] {
        var fields = ["effect": caseName(effect)]
        switch effect {
        case .load(let id, let deck, let loaded, let from):
            fields["load"] = id.description
            fields["deck"] = deck.rawValue
            fields["from"] = seconds(from)
            fields.merge(track(loaded)) { a, _ in a }
        case .start(let deck), .unload(let deck), .reopenConnection(let deck):
            fields["deck"] = deck.rawValue
        case .reconnectingInBackground(let on):
            fields["reconnecting"] = String(on)
        case .setVolume(let volume):
            fields["volume"] = volume.description
        case .setSpeed(let speed):
            fields["speed"] = speed.description
        case .setSilenceTrimming(let on):
            fields["trimSilence"] = String(on)
        case .setLoudness(let levelling):
            fields["loudness"] = levelling.description
        case .sleepTimerChanged(let timer):
            fields["sleep"] = timer?.ending.rawValue ?? "off"
            if let timer, timer.ending == .afterDuration { fields["sleepRemaining"] = seconds(timer.remaining) }
            fields["sleepRunning"] = String(timer?.runningSince != nil)
        case .seek(let deck, let to):
            fields["deck"] = deck.rawValue
            fields["to"] = seconds(to)
        case .scheduleCrossfade(let from, let to, let duration, let curve, let at):
            fields["from"] = from.rawValue
            fields["to"] = to.rawValue
            fields["duration"] = seconds(duration)
            fields["curve"] = caseName(curve)
            if let at { fields["atPosition"] = seconds(at) }
        case .continueCrossfade(let progress, let duration, _):
            fields["progress"] = String(format: "%.3f", progress)
            fields["duration"] = seconds(duration)
        case .quickFinishCrossfade(let duration), .fadeOut(let duration):
            fields["duration"] = seconds(duration)
        case .abortCrossfade(let keep):
            fields["keep"] = keep.rawValue
        case .scheduleTimer(let timer, let at):
            fields.merge(Self.timer(timer)) { a, _ in a }
            fields["at"] = seconds(at.seconds)
        case .cancelTimer(let slot):
            fields["slot"] = caseName(slot)
        case .persistPosition(let point):
            fields["position"] = seconds(point.position)
        case .reportNonFatal(let error):
            fields.merge(Self.error(error, keepPaths: true)) { a, _ in a }
        case .recovered(let error, let how):
            fields["by"] = how.rawValue
            fields["errorType"] = error.errorType
        case .abandonConnection(let deck, let cause):
            fields["deck"] = deck.rawValue
            fields.merge(Self.error(cause, keepPaths: true)) { a, _ in a }
        case .trackFinished(let finished):
            fields["track.id"] = LogRedaction.text(finished.id, keepPaths: true)
        case .startLayers(let plan):
            fields["bed"] = plan.bed.map { BuiltInSound(url: $0.url)?.rawValue ?? "file" } ?? "none"
            fields["bells"] = plan.bells.map { BuiltInSound(url: $0.url)?.rawValue ?? "file" } ?? "none"
            if let length = plan.length { fields["length"] = seconds(length) }
        case .armBell(let cue):
            fields["bellAt"] = seconds(cue.at)
            fields["bellKind"] = cue.kind.rawValue
        case .duckBed(let on):
            fields["duck"] = String(on)
        case .bellRang(let strike):
            fields["bellAt"] = seconds(strike.cue.at)
            fields["strike"] = String(strike.strike)
            fields["sessionTime"] = seconds(strike.sessionTime)
            if strike.skipped { fields["skipped"] = "true" }
        default:
            break
        }
        return fields
    }

    /// The effects of one handled event, in order, as one compact field (`load,start`).
    package static func effectNames(_ effects: [PlayerEffect]) -> String {
        effects.isEmpty ? "none" : effects.map { caseName($0) }.joined(separator: ",")
    }

    /// Seconds with millisecond precision: enough to follow a timeline, short to read.
    package static func seconds(_ value: Double) -> String {
        value.isFinite ? String(format: "%.3f", value) : String(describing: value)
    }
}
