import ArgumentParser
import AudioEngine
import Foundation
import PlayerCore

/// `--output pulse | wav:PATH | wav-float:PATH | null`.
enum OutputSpec: Equatable, ExpressibleByArgument {
    case pulse
    case wav(path: String, float: Bool)
    case null

    init?(argument: String) {
        if argument == "pulse" { self = .pulse; return }
        if argument == "null" { self = .null; return }
        for (prefix, float) in [("wav:", false), ("wav-float:", true)] where argument.hasPrefix(prefix) {
            let path = String(argument.dropFirst(prefix.count))
            guard !path.isEmpty else { return nil }
            self = .wav(path: path, float: float)
            return
        }
        return nil
    }

    var description: String {
        switch self {
        case .pulse: "PulseAudio"
        case .wav(let path, _): "WAV file \(path)"
        case .null: "null output"
        }
    }

    /// Files can be written as fast as possible; a sound server cannot.
    var canRenderFast: Bool { self != .pulse }

    func makeSink(realtime: Bool) -> any AudioSink {
        switch self {
        case .pulse: PulseAudioSink()
        case .wav(let path, let float): WAVFileSink(path: path, encoding: float ? .float32 : .pcm16)
        case .null: NullSink(realtime: realtime)
        }
    }
}
