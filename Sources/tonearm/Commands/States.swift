import ArgumentParser
import PlayerCore

/// Prints the player's state model from the code: docs/STATES.md's diagram and tables are this output.
struct States: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "states", 
        abstract: "Print the player states and the transition table, generated from the code.")

    @Flag(help: "Print Markdown (a Mermaid diagram and tables), as embedded in docs/STATES.md.")
    var markdown = false

    func run() {
        print(markdown ? StateDocumentation.markdown() : StateDocumentation.plainText(), terminator: "")
    }
}
