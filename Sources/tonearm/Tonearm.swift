import ArgumentParser
import AudioEngine
import Media
import PlayerCore
import TerminalApp

/// The `tonearm` command: argument parsing and wiring only; every decision lives in the libraries.
///
/// Every command's configuration names it (`commandName:`). Without one, ArgumentParser derives
/// the name from the type's with `String(describing:)` at every start, and each of those is a
/// protocol-conformance search through the whole program: 14 ms of a 68 ms `podcast list`.
@main
struct Tonearm: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tonearm",
        abstract: "A resilient audio player for Linux that never lies about its state.",
        discussion: """
            Tonearm plays local files and multi-stage sessions with crossfades. Every state is \
            explicit (crossfading with progress, paused mid-crossfade, buffering, reconnecting with a \
            countdown) and every failure is a typed error.
            """,
        version: "\(TonearmVersion.current) (built with \(FFmpegProbe.builtWith))",
        subcommands: [
            LibraryCommand.self, Play.self, SessionCommand.self, TimerCommand.self, PodcastCommand.self, StationCommand.self, ErrorsCommand.self,
            Demo.self, Render.self, States.self, Resilience.self, LoudnessCommand.self, HistoryCommand.self, FavouritesCommand.self, QueueCommand.self,
            Serve.self, AlarmCommand.self,
            SnapcastControl.self, SearchCommand.self, SyncCommand.self, ShareCommand.self, ReportCommand.self,
            AnalyticsCommand.self, MusicCommand.self,
        ],
        defaultSubcommand: LibraryCommand.self
    )

    /// Parses and runs the command, once a playback's decoder load is under way (`EarlyDecoderLoad`).
    static func main() async {
        await EarlyDecoderLoad.start(for: CommandLine.arguments)
        await main(nil)
    }
}
