import ArgumentParser
import AudioEngine
import Foundation
import Library
import PlayerCore
import PlayerKit
import TerminalApp

/// `tonearm play SOURCE...`: plays files, streams and playlists in order; or one thing from the
/// library: an episode (resuming where the listener stopped), a station or a session.
struct Play: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "play", 
        abstract: "Play audio files, cue sheets, internet radio streams and playlist URLs (.pls, .m3u) in order, or an episode, station or session from the library.")

    @Argument(help: "Audio files, cue sheets (.cue: each track) or http(s) URLs of streams or playlists, in order.")
    var sources: [String] = []

    @Option(help: "Play a podcast episode from the library by its id (see `tonearm podcast episodes`); resumes where you stopped.")
    var episode: Int64?

    @Option(help: "With --episode: play its soundbite N (listed by `tonearm podcast soundbites`) from its start for its length; your place in the episode is kept.")
    var soundbite: Int?

    @Option(help: "Play a station from the library by its name or id.")
    var station: String?

    @Option(help: "Play a session kept in the library by its name or id.")
    var session: String?

    @OptionGroup var playback: PlaybackOptions
    @OptionGroup var stream: StreamOptions
    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        let chosen = [!sources.isEmpty, episode != nil, station != nil, session != nil].filter { $0 }.count
        guard chosen == 1 else { throw ValidationError("give sources, or one of --episode, --station, --session") }
        if let soundbite {
            guard episode != nil else { throw ValidationError("--soundbite goes with --episode") }
            guard soundbite >= 1 else { throw ValidationError("--soundbite counts from 1") }
            if playback.sleep != nil { throw ValidationError("a soundbite ends by itself: leave out --sleep") }
            // Its length is listening time, which a render would outrun.
            if playback.fast { throw ValidationError("a soundbite plays in real time: leave out --fast") }
        }
    }

    func run() async throws {
        logging.start()
        let (settings, configuration) = (playback.settings, playback.configuration())
        if let episode, let soundbite {
            return await CommandPlayback.playSoundbite(
                episode, number: soundbite, settings: settings, services: stream.services(for: []), configuration: configuration)
        }
        if let episode {
            return await CommandPlayback.playEpisode(episode, settings: settings, services: stream.services(for: []), configuration: configuration)
        }
        if let station {
            let stream = self.stream
            return await CommandPlayback.playStation(station, settings: settings, services: { stream.services(for: $0) }, configuration: configuration)
        }
        if let session { return await CommandPlayback.playSession(session, settings: settings, configuration: configuration) }
        // Named now; the files' durations are read while the library and the output open.
        let (sources, finite) = (self.sources, stream.finite)
        let named = sources.enumerated().map { Track.commandLineSource($1, index: $0, finite: finite, duration: nil) }
        guard let unread = PlayRequest(items: named.map { QueueItem(track: $0) }) else {
            throw ValidationError("give at least one source")
        }
        await CommandPlayback(settings, services: stream.services(for: named)).run(
            preparing: {
                let read = await BlockingCall.onOwnThread { () -> Result<[Track], PlaybackError> in
                    do throws(PlaybackError) { return .success(try Track.commandLineSources(sources, finite: finite)) } catch { return .failure(error) }
                }
                CommandLog.startupStep("sources read")
                switch read {
                case .success(let tracks): return .play(PlayRequest(items: tracks.map { QueueItem(track: $0) }) ?? unread)
                // A cue sheet that cannot be read is shown as the failure it is.
                case .failure(let error): return .cannotPlay(error)
                }
            }, configuration: configuration)
    }
}
