import ArgumentParser
import AudioEngine
import Foundation
import PlayerCore

/// Loads a session file into a play request, printing a typed error when it cannot.
enum SessionLoader {
    static func request(for path: String) -> PlayRequest {
        let url = URL(fileURLWithPath: path)
        do throws(PlaybackError) {
            let file = try SessionFile.load(from: url)
            return try SessionPlanner.plan(file, base: url.deletingLastPathComponent())
        } catch {
            // The detail says what is wrong in the user's own session file (a key, a stage).
            ErrorOutput.fail(error, detail: error.underlying)
        }
    }
}

/// `tonearm session FILE`: plays a multi-stage session.
struct SessionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session", abstract: "Play a multi-stage session file (JSON; see the README for the format).")

    @Argument(help: "The session file.")
    var file: String

    @OptionGroup var playback: PlaybackOptions

    func run() async throws {
        try await PlaybackRunner(options: playback).run(SessionLoader.request(for: file), configuration: playback.configuration())
    }
}

/// `tonearm render SESSION --output wav:PATH`: renders a session as fast as possible.
struct Render: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a session to a WAV file as fast as possible (SESSION may be 'demo').")

    @Argument(help: "The session file, or 'demo' for the built-in demo.")
    var session: String

    @OptionGroup var playback: PlaybackOptions

    func validate() throws {
        guard let output = playback.output, output.canRenderFast else {
            throw ValidationError("render needs --output wav:PATH, wav-float:PATH or null")
        }
    }

    func run() async throws {
        let path = session == "demo" && !FileManager.default.fileExists(atPath: session) ? DemoSession.path : session
        try await PlaybackRunner(options: playback, rendering: true).run(SessionLoader.request(for: path), configuration: playback.configuration())
    }
}

/// `tonearm demo`: the built-in 3-stage meditation session.
struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play the built-in 3-stage meditation demo (to PulseAudio, or rendered to ./tonearm-demo.wav when no server answers).")

    @OptionGroup var playback: PlaybackOptions

    func run() async throws {
        try await PlaybackRunner(options: playback, fallbackWAV: "tonearm-demo.wav")
            .run(SessionLoader.request(for: DemoSession.path), configuration: playback.configuration())
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
