import ArgumentParser
import PlayerCore

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
