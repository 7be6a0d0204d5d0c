import ArgumentParser
import Daemon
import Foundation
import LibraryKit
import PlayerCore
import PlayerKit
import TerminalApp

/// `tonearm` (no arguments) or `tonearm library`: the library screens on a terminal. Elsewhere
/// (stdout or stdin not a terminal, `--no-tui`) it prints what the library holds and how to
/// use the commands instead, since there is nobody to press keys.
struct LibraryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library", abstract: "Browse stations, podcasts, sessions and diagnostics on the terminal (the default).")

    @Option(help: "Where sound goes: pulse, wav:PATH, wav-float:PATH or null. Default: PulseAudio when a server answers.")
    var output: OutputChoice?

    @Flag(help: "Do not open the terminal screens.")
    var noTui = false

    @Option(help: "The music folder the Music tab plays from and indexes (default: the XDG music folder, `xdg-user-dir MUSIC`, else ~/Music).")
    var musicDirectory: String?

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        logging.start()
        let library = await LibraryContext.openForCommand()
        let term = ProcessInfo.processInfo.environment["TERM"] ?? ""
        if !noTui, !term.isEmpty, term != "dumb", isatty(STDOUT_FILENO) != 0, isatty(STDIN_FILENO) != 0 {
            let (bindings, warning) = TerminalConfig.bindings()
            if let warning { FileHandle.standardError.write(Data("tonearm: \(TextSanitizer.singleLine(warning, maxLength: 300))\n".utf8)) }
            do {
                // How a failure came about, for `tonearm report`.
                let timeline = FailureTimeline(logger: CommandLog.logger)
                try await LibraryController(
                    library: library, output: output, language: .current, bindings: bindings, logger: CommandLog.logger,
                    observer: { timeline.observe($0) },
                    musicDirectory: musicDirectory.map { URL(fileURLWithPath: NSString(string: $0).expandingTildeInPath, isDirectory: true) }
                        ?? MusicDirectory.standard()
                ).run()
                return
            } catch {
                // curses cannot drive this terminal: fall through to the text summary.
            }
        }
        LibrarySummary.print(library)
    }
}
