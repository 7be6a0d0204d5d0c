import Foundation
import Library
import LibraryKit
import PlayerCore
import PlayerKit
import Presentation

/// `tonearm alarm`: set an alarm (handed to the daemon when one runs, else waited for in this
/// process), list the daemon's alarms, remove one.
package enum AlarmCommands {
    /// What `tonearm alarm TIME ...` asked for besides the alarm itself.
    package struct Settings: Sendable {
        package var output: OutputChoice?
        package var jsonEvents: Bool
        package var configuration: PlayerStateMachine.Configuration
        /// `--volume` was given: the kept volume does not replace it.
        package var volumeGiven: Bool

        package init(output: OutputChoice?, jsonEvents: Bool, configuration: PlayerStateMachine.Configuration, volumeGiven: Bool) {
            self.output = output
            self.jsonEvents = jsonEvents
            self.configuration = configuration
            self.volumeGiven = volumeGiven
        }
    }

    /// Checks that the source is in the library now, then hands the alarm to the daemon when one
    /// owns the sound (and this run does not name an output of its own), or waits for it here.
    package static func set(_ alarm: Alarm, settings: Settings) async {
        guard let wall = AlarmWallClock.fromEnvironment() else {
            CommandFailure.exit(PlaybackError(.malformedData, underlying: "\(AlarmWallClock.testNowVariable) is not an ISO 8601 instant"))
        }
        let zone = TimeZone.current
        let library = await LibraryContext.openForCommand()
        let replacement = await library.attempt("alarm") { () throws(PlaybackError) in try library.alarmReplacement(for: alarm.source) }
        if case .cannotPlay(let error) = replacement { CommandFailure.exit(error) }
        if settings.output?.isSharedSound ?? true, let daemon = DaemonLock.running() {
            return await handOver(alarm, to: daemon, library: library, wall: wall, zone: zone)
        }
        var configuration = settings.configuration
        ListeningSettings.applySaved(in: library.store, podcast: nil, to: &configuration, except: settings.volumeGiven ? [.volume] : [])
        let console = AlarmConsole(alarm: alarm, jsonEvents: settings.jsonEvents, zone: zone, wall: wall)
        await StandaloneAlarm(library: library, output: settings.output, configuration: configuration, console: console)
            .run(alarm, zone: zone, wall: wall)
    }

    private static func handOver(_ alarm: Alarm, to daemon: RunningDaemon, library: LibraryContext, wall: AlarmWallClock, zone: TimeZone) async {
        let kept = await library.attempt("alarm") { () throws(PlaybackError) in try AlarmFile().update { $0.add(alarm) } }
        let now = wall.now()
        let text = AlarmTexts.handedOver(kept, daemonPID: daemon.info?.pid ?? 0, due: kept.next(after: now, in: zone), now: now, zone: zone, language: .current)
        print(text)
    }

    /// `--list`: the daemon's alarms, with when each sounds next.
    package static func list(json: Bool) async {
        let alarms = CommandFailure.orExit { () throws(PlaybackError) in try AlarmFile().read() }.alarms
        let wall = AlarmWallClock.fromEnvironment() ?? .system
        let (now, zone) = (wall.now(), TimeZone.current)
        if json {
            let rows = alarms.map { ListedAlarm(alarm: $0, next: AlarmEventLine.timestamp($0.next(after: now, in: zone), zone: zone)) }
            return JSONOutput.print(rows)
        }
        guard !alarms.isEmpty else { return print(AlarmTexts.string("none", in: .current)) }
        let rows = alarms.map { alarm -> [String] in
            [
                "\(alarm.id)", alarm.time.description, alarm.days.description, AlarmTexts.when(alarm.next(after: now, in: zone), zone: zone, language: .current),
                alarm.fadeIn == 0 ? "-" : "\(Int(alarm.fadeIn)) s", alarm.source.description,
            ]
        }
        print(TextTable.render(header: ["ID", "TIME", "DAYS", "NEXT", "FADE-IN", "PLAYS"], rows: rows))
        if DaemonLock.running() == nil { print(AlarmTexts.string("noDaemon", in: .current)) }
    }

    /// `--cancel ID`: removes one of the daemon's alarms (the daemon lets go of it at once).
    package static func cancel(id: Int) {
        let removed = CommandFailure.orExit { () throws(PlaybackError) in try AlarmFile().update { $0.remove(id: id) } }
        guard removed != nil else { CommandFailure.exit(PlaybackError(.notInLibrary, underlying: "no alarm with id \(id)")) }
        print(AlarmTexts.string("cancelledID", in: .current, "\(id)"))
    }

    /// An alarm as `--list --json` prints it.
    struct ListedAlarm: Encodable {
        var alarm: Alarm
        var next: String

        func encode(to encoder: any Encoder) throws {
            try alarm.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(next, forKey: .next)
        }

        enum Key: String, CodingKey { case next }
    }
}
