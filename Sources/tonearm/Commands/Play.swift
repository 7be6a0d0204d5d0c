import ArgumentParser
import AudioEngine
import Foundation
import PlayerCore

/// `tonearm play SOURCE...`: plays files in order.
struct Play: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Play audio files in order, with optional crossfades.")

    @Argument(help: "Audio files to play, in order.")
    var sources: [String]

    @OptionGroup var playback: PlaybackOptions

    func run() async throws {
        let tracks = sources.enumerated().map { index, source -> Track in
            let url = source.contains("://") ? (URL(string: source) ?? URL(fileURLWithPath: source)) : URL(fileURLWithPath: source)
            let kind: Track.Kind = url.isFileURL ? .file : .episode
            return Track(
                id: "arg\(index + 1):\(url.lastPathComponent)", url: url, kind: kind,
                title: url.deletingPathExtension().lastPathComponent, duration: url.isFileURL ? FileDurationProbe.duration(of: url) : nil)
        }
        guard let request = PlayRequest(items: tracks.map { QueueItem(track: $0) }) else {
            throw ValidationError("give at least one source")
        }
        try await PlaybackRunner(options: playback).run(request, configuration: playback.configuration())
    }
}
