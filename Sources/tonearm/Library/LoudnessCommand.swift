import ArgumentParser
import Foundation
import LibraryKit
import PlayerKit
import TerminalApp

/// `tonearm loudness FILE...`: measures files for levelling ahead of playing them.
struct LoudnessCommand: LibrarySubcommand {
    static let configuration = CommandConfiguration(
        commandName: "loudness", abstract: "Measure files' loudness (EBU R128) for levelling, and keep it in the library.")

    @Argument(help: "Audio files.") var files: [String]
    @Flag(help: "Print a JSON array: file, lufs, source, kept, seconds.") var json = false
    @OptionGroup var logging: LoggingOptions

    func run(on library: LibraryContext) async throws {
        let status = await LoudnessMeasurement.run(files, json: json, library: library)
        if status != 0 { throw ExitCode(status) }
    }
}
