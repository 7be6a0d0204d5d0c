import AudioEngine
import Foundation
import PlayerCore

/// Session files from disk: checked when they are added (so a broken file is refused then, not
/// when it is played) and planned into a play request when they are played.
public enum SessionLoader {
    /// Loads and plans `url`; returns the file with its JSON text, which the library keeps.
    public static func check(_ url: URL) throws(PlaybackError) -> (SessionFile, String) {
        let file = try SessionFile.load(from: url)
        _ = try SessionPlanner.plan(file, base: url.deletingLastPathComponent())
        guard let data = FileManager.default.contents(atPath: url.path), let json = String(data: data, encoding: .utf8) else {
            throw PlaybackError(.malformedData, underlying: "the session file is not UTF-8")
        }
        return (file, json)
    }

    /// The play request of the session file at `path`, with its sources' durations read by FFmpeg.
    public static func request(for path: String) throws(PlaybackError) -> PlayRequest {
        let url = URL(fileURLWithPath: path)
        return try SessionPlanner.plan(try SessionFile.load(from: url), base: url.deletingLastPathComponent())
    }
}
