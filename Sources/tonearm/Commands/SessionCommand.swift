import ArgumentParser
import AudioEngine
import Foundation
import LibraryKit
import PlayerCore
import PlayerKit
import TerminalApp
import Presentation

/// `tonearm session ...`: plays a multi-stage session file (`tonearm session FILE`, the default
/// subcommand) and keeps session files in the library by name.
struct SessionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session", abstract: "Play a multi-stage session file, or keep session files in the library.",
        subcommands: [PlayFile.self, Add.self, List.self, Remove.self], defaultSubcommand: PlayFile.self)

    struct PlayFile: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "play", abstract: "Play a multi-stage session file (JSON; the format is in docs/USAGE.md).")

        @Argument(help: "The session file.")
        var file: String

        @OptionGroup var playback: PlaybackOptions
        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            logging.start()
            await CommandPlayback(playback.settings).run(.play(SessionLoader.requestOrFail(for: file)), configuration: playback.configuration())
        }
    }

    struct Add: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "add", 
            abstract: "Keep a session file in the library (checked first; named after its \"name\" unless --name is given).")
        @Argument(help: "The session file.") var file: String
        @Option(help: "The name to keep it under.") var name: String?
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            await SessionCommands.add(file: file, name: name, library: library)
        }
    }

    struct List: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List sessions kept in the library.")
        @Flag(help: "Print a JSON array (stable ids) for scripts.") var json = false
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            await SessionCommands.list(json: json, library: library)
        }
    }

    struct Remove: LibrarySubcommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Forget a session (its file stays).")
        @Argument(help: "The session's name or id.") var name: String
        @OptionGroup var logging: LoggingOptions

        func run(on library: LibraryContext) async throws {
            await SessionCommands.remove(name, library: library)
        }
    }
}

/// `tonearm render SESSION --output wav:PATH`: renders a session as fast as possible.
struct Render: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "render", 
        abstract: "Render a session to a WAV file as fast as possible (SESSION may be 'demo').")

    @Argument(help: "The session file, or 'demo' for the built-in demo.")
    var session: String

    @OptionGroup var playback: PlaybackOptions

    func validate() throws {
        guard let output = playback.output, output.canRenderFast else {
            throw ValidationError("render needs --output wav:PATH, wav-float:PATH or null")
        }
    }

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        logging.start()
        let path = session == "demo" && !FileManager.default.fileExists(atPath: session) ? DemoSession.path : session
        await CommandPlayback(playback.settings, rendering: true).run(.play(SessionLoader.requestOrFail(for: path)), configuration: playback.configuration())
    }
}

/// `tonearm demo`: the built-in 3-stage meditation session.
struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "demo", 
        abstract: "Play the built-in 3-stage meditation demo (to PulseAudio, or rendered to ./tonearm-demo.wav when no server answers).")

    @OptionGroup var playback: PlaybackOptions
    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        logging.start()
        await CommandPlayback(playback.settings, fallbackWAV: "tonearm-demo.wav")
            .run(.play(SessionLoader.requestOrFail(for: DemoSession.path)), configuration: playback.configuration())
    }
}

/// The demo session shipped inside the executable's resource bundle.
enum DemoSession {
    static var path: String {
        guard let url = Bundle.module.url(forResource: "demo", withExtension: "json", subdirectory: "Demo") else {
            FileHandle.standardError.write(Data("tonearm: the demo's files are missing from the installation\n".utf8))
            Foundation.exit(1)
        }
        return url.path
    }
}
