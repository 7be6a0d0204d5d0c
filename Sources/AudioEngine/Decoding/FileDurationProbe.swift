import Foundation
import Media
import PlayerCore

/// Reads a local file's duration with FFmpeg (nil for anything it cannot open or remote URLs). A
/// built-in sound's is known without opening anything: the bowl's length, nil for endless sounds.
package enum FileDurationProbe {
    package static func duration(of url: URL) -> Double? {
        if SynthesizedDecoder.addresses(url) { return BuiltInSound(url: url).flatMap(SynthesizedDecoder.duration(of:)) }
        guard url.isFileURL, let decoder = try? FFmpegDecoder(url: url) else { return nil }
        return decoder.duration
    }
}

extension SessionPlanner {
    /// Plans `session` with the durations FFmpeg reads from its files.
    package static func plan(_ session: SessionFile, base: URL) throws(PlaybackError) -> PlayRequest {
        try plan(session, base: base, probe: FileDurationProbe.duration(of:))
    }
}
