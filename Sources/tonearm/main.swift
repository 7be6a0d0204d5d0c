import ArgumentParser
import PlayerCore

/// The `tonearm` command: argument parsing and wiring only; every decision lives in the libraries.
@main
struct Tonearm: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tonearm",
        abstract: "A resilient audio player for Linux that never lies about its state.",
        discussion: """
            Tonearm plays local files, podcast episodes, internet radio and multi-stage sessions with \
            crossfades. Every state is explicit (crossfading with progress, paused mid-crossfade, \
            buffering, reconnecting with a countdown) and every failure is a typed error.
            """,
        version: TonearmVersion.current,
        subcommands: [States.self]
    )
}

/// Prints the player's state model from the code: the README's diagram is this output.
struct States: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the player states and the transition table, generated from the code.")

    @Flag(help: "Print Markdown (a Mermaid diagram and tables), as embedded in the README.")
    var markdown = false

    func run() {
        print(markdown ? StateDocumentation.markdown() : StateDocumentation.plainText(), terminator: "")
    }
}
