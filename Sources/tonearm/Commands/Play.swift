import ArgumentParser
import AudioEngine
import Foundation
import PlayerCore

/// `tonearm play SOURCE...`: plays files, streams and playlists in order.
struct Play: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play audio files, internet radio streams and playlist URLs (.pls, .m3u) in order, with optional crossfades.")

    @Argument(help: "Audio files or http(s) URLs of streams or playlists, in order.")
    var sources: [String]

    @OptionGroup var playback: PlaybackOptions
    @OptionGroup var stream: StreamOptions

    func run() async throws {
        let tracks = sources.enumerated().map { index, source -> Track in
            let url = source.contains("://") ? (URL(string: source) ?? URL(fileURLWithPath: source)) : URL(fileURLWithPath: source)
            let kind: Track.Kind = url.isFileURL ? .file : (stream.episode ? .episode : .liveStream)
            let name = url.isFileURL ? url.deletingPathExtension().lastPathComponent : (url.host ?? "stream")
            return Track(
                id: "arg\(index + 1):\(url.lastPathComponent)", url: url, kind: kind,
                title: name, duration: url.isFileURL ? FileDurationProbe.duration(of: url) : nil)
        }
        guard let request = PlayRequest(items: tracks.map { QueueItem(track: $0) }) else {
            throw ValidationError("give at least one source")
        }
        try await PlaybackRunner(options: playback, services: stream.services(for: tracks))
            .run(request, configuration: playback.configuration())
    }
}
