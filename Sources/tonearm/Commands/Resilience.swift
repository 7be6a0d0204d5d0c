import ArgumentParser

/// Prints the resilience defaults from the code: docs/RESILIENCE.md's table is this output.
struct Resilience: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "resilience", 
        abstract: "Print the resilience defaults (retries, backoff, budgets, timeouts, circuit breakers), generated from the code.")

    @Flag(help: "Print a Markdown table, as embedded in docs/RESILIENCE.md.")
    var markdown = false

    func run() {
        print(markdown ? ResilienceTable.markdown() : ResilienceTable.plainText(), terminator: "")
    }
}
