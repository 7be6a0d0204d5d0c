import ArgumentParser
import Foundation
import PlayerCore
import PlayerKit
import TerminalApp

/// `tonearm alarm TIME --station NAME | --episode ID | --session NAME`: parsing only; what it
/// does is `AlarmCommands` (TerminalApp), when it sounds is `AlarmMachine` (PlayerCore).
struct AlarmCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alarm",
        abstract: "Wake to a station, an episode or a session at a time of day, fading in; a local tone plays if it does not sound.",
        discussion: """
            If the source has not sounded within 20 s (a dead station, no network, a silent stream \
            under -40 LUFS), Tonearm's own alarm tone plays instead and the failure is told. When a \
            daemon runs (tonearm serve), the alarm is handed to it and this command ends; otherwise \
            it waits in this process, printing when it will sound (Ctrl-C cancels it). An alarm found \
            more than 10 minutes late (the computer was asleep) is reported as missed, not played late.
            """)

    @Argument(help: "The time of day, 24-hour local time: 07:00 (or 06:59:30).")
    var time: String?

    @Option(help: "Play a station from the library by its name or id.")
    var station: String?

    @Option(help: "Play a podcast episode from the library by its id, from where you stopped.")
    var episode: Int64?

    @Option(help: "Play a session kept in the library by its name or id.")
    var session: String?

    @Option(help: "Seconds from silence to the volume, 0-300.")
    var fadeIn: Double = Alarm.defaultFadeIn

    @Option(help: "The days it sounds on: mon-fri, sat,sun, mon,wed-fri (default: every day).")
    var days: String?

    @Option(help: "The volume it rises to, 0-150% (default: your volume when it sounds).")
    var volume: Volume?

    @Option(help: "Where sound goes when it waits in this process (as `tonearm play --output`). Default: PulseAudio, or the daemon when one runs.")
    var output: OutputChoice?

    @Option(help: "Machine-readable events on stdout while it waits in this process: jsonl.")
    var events: PlaybackOptions.EventFormat?

    @Flag(help: "List the alarms handed to the daemon.")
    var list = false

    @Option(help: ArgumentHelp("Remove the daemon's alarm with this id (see --list).", valueName: "id"))
    var cancel: Int?

    @Flag(help: "With --list: print a JSON array for scripts.")
    var json = false

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        if list || cancel != nil {
            guard !(list && cancel != nil), time == nil, station == nil, episode == nil, session == nil else {
                throw ValidationError("--list and --cancel take nothing else")
            }
            return
        }
        guard let time, AlarmTime.parse(time) != nil else { throw ValidationError("give a time of day such as 07:00 (24-hour)") }
        let chosen = [station != nil, episode != nil, session != nil].filter { $0 }.count
        guard chosen == 1 else { throw ValidationError("give one of --station, --episode, --session") }
        if let days, AlarmDays.parse(days) == nil { throw ValidationError("--days takes days such as mon-fri, sat,sun or mon,wed-fri") }
        guard Alarm.fadeInRange.contains(fadeIn) else { throw ValidationError("--fade-in must be between 0 and 300 seconds") }
        switch output {
        case .wav?, .fifo?:
            // A file output renders as fast as it can: a tone that loops until stopped would fill the disk.
            throw ValidationError("an alarm plays in real time: --output takes pulse, null or snapcast:…")
        default: break
        }
    }

    func run() async throws {
        logging.start()
        if list { return await AlarmCommands.list(json: json) }
        if let cancel { return AlarmCommands.cancel(id: cancel) }
        guard let time = time.flatMap(AlarmTime.parse) else { return }
        let source: Alarm.Source = if let station { .station(station) } else if let episode { .episode(episode) } else { .session(session ?? "") }
        let alarm = Alarm(time: time, days: days.flatMap(AlarmDays.parse) ?? .everyDay, source: source, fadeIn: fadeIn, volume: volume)
        var configuration = PlayerStateMachine.Configuration()
        if let volume { configuration.volume = volume }
        let settings = AlarmCommands.Settings(output: output, jsonEvents: events == .jsonl, configuration: configuration, volumeGiven: volume != nil)
        await AlarmCommands.set(alarm, settings: settings)
    }
}
