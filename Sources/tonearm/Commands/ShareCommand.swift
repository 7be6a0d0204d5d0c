import ArgumentParser
import TerminalApp

/// `tonearm share`: a line with what the running Tonearm plays, to paste to someone.
struct ShareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "Print what the running Tonearm plays: the song and station, or the episode's address at its time (#t=); on a terminal also copied (OSC 52).")

    func run() throws {
        let status = ShareCommands.run()
        if status != 0 { throw ExitCode(status) }
    }
}
