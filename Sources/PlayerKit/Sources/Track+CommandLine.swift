import AudioEngine
import Foundation
import Media
import PlayerCore

extension Track {
    /// A source named on a command line: a path, or an http(s) URL of a live stream (an episode-like
    /// finite file with `finite`). A file is shown by its tags (`TagReader`), its file name only
    /// when it has no title; an episode is named by its file name, a live stream by its host; a
    /// file's duration is read by FFmpeg.
    public static func commandLineSource(_ source: String, index: Int, finite: Bool) -> Track {
        let url = commandLineURL(source)
        guard url.isFileURL else { return commandLineSource(source, index: index, finite: finite, duration: nil) }
        let tags = try? TagReader.read(url)
        let duration = tags?.audio.duration ?? FileDurationProbe.duration(of: url)
        return commandLineSource(source, index: index, finite: finite, duration: duration, tags: tags)
    }

    /// The same track with `duration` (and `tags`) as given, before any file is opened: for a
    /// caller that reads them while it does other work.
    public static func commandLineSource(_ source: String, index: Int, finite: Bool, duration: TimeInterval?, tags: SongTags? = nil) -> Track {
        let url = commandLineURL(source)
        let id = "arg\(index + 1):\(url.lastPathComponent)"
        if url.isFileURL { return .localFile(id: id, url: url, tags: tags, duration: duration) }
        let kind: Track.Kind = finite ? .episode : .liveStream
        let fileName = url.deletingPathExtension().lastPathComponent
        let name = finite && !fileName.isEmpty && fileName != "/" ? fileName : (url.host ?? "stream")
        return Track(id: id, url: url, kind: kind, title: name, duration: duration)
    }

    private static func commandLineURL(_ source: String) -> URL {
        source.contains("://") ? (URL(string: source) ?? URL(fileURLWithPath: source)) : URL(fileURLWithPath: source)
    }
}
