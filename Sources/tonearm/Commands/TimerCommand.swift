import ArgumentParser
import AudioEngine
import Foundation
import LibraryKit
import PlayerCore
import PlayerKit
import Presentation
import TerminalApp

/// `tonearm timer [LENGTH]`: a timer without guidance, played as a session (`TimerSession`): a
/// start bell, interval or listed bells, an end bell at the length, over silence or a bed.
struct TimerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timer",
        abstract: "Play a meditation timer: a bell at the start, bells on the way, a bell at the end, over silence or an ambient bed.",
        discussion: """
            Durations are 20m, 90s, 1h30m, 1:30:00 or plain seconds. Without a length (or with \
            --open-ended) the timer counts up until stopped, with its interval bells. The timer \
            pauses, seeks and stops like any session; its bells ring on the session's clock.
            """)

    @Argument(help: "How long the timer lasts (20m, 1h30m, 1:30:00, seconds); none counts up until stopped.")
    var length: String?

    @Option(help: "An ambient bed under the timer: brown or pink (noise Tonearm makes), or an audio file.")
    var bed: String?

    @Option(help: "The bell: bowl (a singing bowl Tonearm makes) or an audio file.")
    var bell: String = BuiltInSound.bowl.rawValue

    @Option(help: "A bell every so long from the start (5m), at least 1 s apart.")
    var interval: String?

    @Option(name: .customLong("bells-at"), help: "Bells at these times from the start, comma-separated (0,25m,30m,55m).")
    var bellsAt: String?

    @Option(help: "Strikes per bell, 1-5 (2 is a double strike, 3 s apart).")
    var strikes: Int = 1

    @Option(help: "The bells' volume, 0-1 (default 0.8).")
    var bellVolume: Float?

    @Option(help: "The bed's volume, 0-1 (default 0.6).")
    var bedVolume: Float?

    @Flag(help: "Count up until stopped (the same as giving no length).")
    var openEnded = false

    @Option(help: "Keep the timer in the library as a session under this name (play it again with `tonearm play --session NAME`).")
    var save: String?

    @OptionGroup var playback: PlaybackOptions
    @OptionGroup var logging: LoggingOptions

    /// The timer the options ask for: what `validate` checks, so a mistake is told with this
    /// command's usage before anything opens.
    func timer() throws(TimerSessionError) -> TimerSession {
        try TimerSession(
            length: length, openEnded: openEnded, bed: try bed.map { name throws(TimerSessionError) in try Self.sound(name, .bed) },
            bell: try Self.sound(bell, .bell), interval: interval, bellsAt: bellsAt, strikes: strikes, bellVolume: bellVolume,
            bedVolume: bedVolume)
    }

    func validate() throws {
        let timer: TimerSession
        do throws(TimerSessionError) {
            timer = try self.timer()
        } catch {
            throw ValidationError(error.message(in: .current))
        }
        if timer.length == nil, playback.fast {
            throw ValidationError("--fast renders as fast as possible, and an open-ended timer never ends: give it a length")
        }
    }

    func run() async throws {
        let language = Language.current
        let timer = try self.timer()
        logging.start()
        let title = TimerTexts.title(length: timer.length, in: language)
        let session = timer.session(name: save ?? title, title: title)
        let request = CommandFailure.orExit { () throws(PlaybackError) in
            try SessionPlanner.plan(session, base: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
        }
        var library: LibraryContext?
        if let save {
            let opened = await LibraryContext.openForCommand()
            let record = await opened.attempt("keepSession") { () throws(PlaybackError) in try opened.keepSession(session, name: save) }
            FileHandle.standardError.write(
                Data("Kept as \(record.name) (session \(record.id)). Play it again with: tonearm play --session \"\(record.name)\"\n".utf8))
            library = opened
        }
        await CommandPlayback(playback.settings, library: library).run(.play(request), configuration: playback.configuration())
    }

    /// A built-in sound by its name, else a file: made absolute against the working directory (so a
    /// kept timer plays from anywhere) and required to be there.
    static func sound(_ name: String, _ layer: TimerSessionError.Layer) throws(TimerSessionError) -> String {
        let word = name.trimmingCharacters(in: .whitespaces)
        guard !word.isEmpty else { throw .noSound(layer) }
        if BuiltInSound(rawValue: word.lowercased()) != nil { return word.lowercased() }
        let path = URL(fileURLWithPath: NSString(string: word).expandingTildeInPath).standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: path) else { throw .missingFile(layer, word) }
        return path
    }
}
