import Foundation

/// Turns a session file into the queue the state machine plays: one item per stage.
///
/// A stage with `loops` or `duration` is still one item, one track: its title, its clock and its
/// duration are the stage's (a 25 s source looped to 40 s shows "Breath", 0:27 / 0:40), and its
/// repeats are a `SourceLoop` the deck plays (see `LoopingDecoder`). The state machine crossfades
/// only between stages, so a repeat never shows up as a handover.
public enum SessionPlanner {
    /// - Parameters:
    ///   - session: the session file, checked.
    ///   - base: the session file's folder, for relative sources.
    ///   - probe: the duration of a source in seconds (nil if unknown), for the length of looped
    ///     stages and crossfade timing (the engine probes with FFmpeg, `plan(_:base:)`).
    public static func plan(
        _ session: SessionFile, base: URL, probe: (URL) -> Double?
    ) throws(PlaybackError) -> PlayRequest {
        var items: [QueueItem] = []
        let sessionName = TextSanitizer.singleLine(session.name ?? "session", maxLength: 64)
        for (index, stage) in session.stages.enumerated() {
            let url = try resolve(stage.source, base: base)
            let kind: Track.Kind = url.isFileURL ? .file : .episode
            let sourceDuration = probe(url)
            let title = stage.title ?? url.deletingPathExtension().lastPathComponent
            let curve = stage.curve ?? session.curve ?? .equalPower
            let into = CrossfadeSpec(duration: stage.crossfade ?? session.crossfade ?? 0, curve: curve)
            let loop = loop(for: stage, curve: curve)
            let duration = loop.map { $0.playLength(source: sourceDuration) } ?? sourceDuration
            let track = Track(
                id: "\(sessionName)#\(index + 1)", url: url, kind: kind, title: title, album: sessionName,
                duration: duration, volume: stage.volume ?? 1, loop: loop)
            items.append(QueueItem(track: track, crossfadeIntoNext: into))
        }
        guard let request = PlayRequest(items: items) else {
            throw PlaybackError(.malformedData, underlying: "session file: nothing to play")
        }
        return request
    }

    /// How a stage repeats its source: `duration` seconds (cut exactly there), or `loops` times
    /// overlapped by `loopCrossfade`; nil for a stage that plays its source once.
    static func loop(for stage: SessionFile.Stage, curve: FadeCurve) -> SourceLoop? {
        let between = CrossfadeSpec(duration: stage.loopCrossfade ?? 0, curve: curve)
        if let total = stage.duration { return SourceLoop(.seconds(total), crossfade: between) }
        if let n = stage.loops, n > 1 { return SourceLoop(.repeats(n), crossfade: between) }
        return nil
    }

    /// Resolves a stage's source against the session file's folder.
    static func resolve(_ source: String, base: URL) throws(PlaybackError) -> URL {
        let trimmed = source.trimmingCharacters(in: .whitespaces)
        if let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(), scheme.count > 1 {
            guard Track.playableSchemes.contains(scheme) else {
                throw PlaybackError(.unsupportedFormat, underlying: "session source scheme \(scheme)")
            }
            return url
        }
        if trimmed.hasPrefix("/") { return URL(fileURLWithPath: trimmed) }
        return base.appendingPathComponent(trimmed).standardizedFileURL
    }
}
