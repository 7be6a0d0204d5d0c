import AudioEngine
import Foundation
import PlayerCore

extension Track {
    /// A source named on a command line: a path, or an http(s) URL of a live stream (an episode-like
    /// finite file with `finite`). A file or an episode is named by its file name, a live stream by
    /// its host; a file's duration is read by FFmpeg.
    public static func commandLineSource(_ source: String, index: Int, finite: Bool) -> Track {
        let url = commandLineURL(source)
        return commandLineSource(source, index: index, finite: finite, duration: url.isFileURL ? FileDurationProbe.duration(of: url) : nil)
    }

    /// The same track with `duration` as given, before any file is opened: for a caller that reads
    /// the durations while it does other work.
    public static func commandLineSource(_ source: String, index: Int, finite: Bool, duration: TimeInterval?) -> Track {
        let url = commandLineURL(source)
        let kind: Track.Kind = url.isFileURL ? .file : (finite ? .episode : .liveStream)
        let fileName = url.deletingPathExtension().lastPathComponent
        let name = (url.isFileURL || finite) && !fileName.isEmpty && fileName != "/" ? fileName : (url.host ?? "stream")
        return Track(id: "arg\(index + 1):\(url.lastPathComponent)", url: url, kind: kind, title: name, duration: duration)
    }

    private static func commandLineURL(_ source: String) -> URL {
        source.contains("://") ? (URL(string: source) ?? URL(fileURLWithPath: source)) : URL(fileURLWithPath: source)
    }
}
