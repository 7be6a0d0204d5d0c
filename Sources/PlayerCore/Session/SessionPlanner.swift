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
            let kind: Track.Kind = url.isFileURL || BuiltInSound(url: url) != nil ? .file : .episode
            let sourceDuration = probe(url)
            let title = stage.title ?? url.deletingPathExtension().lastPathComponent
            let curve = stage.curve ?? session.curve ?? .equalPower
            let into = CrossfadeSpec(duration: stage.crossfade ?? session.crossfade ?? 0, curve: curve)
            let loop = loop(for: stage, curve: curve)
            let duration = loop.map { $0.playLength(source: sourceDuration) } ?? sourceDuration
            let track = Track(
                id: "\(sessionName)#\(index + 1)", url: url, kind: kind, title: title, album: sessionName,
                duration: duration, volume: stage.volume ?? 1, loop: loop)
            items.append(QueueItem(track: track, crossfadeIntoNext: into, isVoice: stage.voice ?? false))
        }
        let length = PlayRequest(items: items)?.playLength(configuration: .init())
        let layers = try layers(of: session, base: base, length: length)
        guard let request = PlayRequest(items: items, layers: layers) else {
            throw PlaybackError(.malformedData, underlying: "session file: nothing to play")
        }
        return request
    }

    /// The session's bed and bells, resolved; nil when it has neither. `length` is the session's
    /// play length (the end bell's time), nil when a stage's length is unknown.
    static func layers(of session: SessionFile, base: URL, length: TimeInterval?) throws(PlaybackError) -> LayerPlan? {
        guard session.bed != nil || session.bells != nil else { return nil }
        var bed: LayerPlan.Bed?
        if let b = session.bed {
            bed = LayerPlan.Bed(
                url: try resolveLayerSource(b.source, base: base), level: b.level ?? 0.6, fadeIn: b.fadeIn ?? 5, fadeOut: b.fadeOut ?? 8,
                loopCrossfade: CrossfadeSpec(duration: b.loopCrossfade ?? 2), duckDecibels: b.duck ?? -12, attack: b.attack ?? 0.5,
                release: b.release ?? 2)
        }
        var bells: LayerPlan.Bells?
        if let b = session.bells {
            let schedule = BellSchedule(times: b.at ?? [], interval: b.interval, start: b.start ?? true, end: b.end ?? true, length: length)
            bells = LayerPlan.Bells(
                url: try resolveLayerSource(b.sound ?? BuiltInSound.bowl.rawValue, base: base), level: b.level ?? 0.8,
                strikes: b.strikes ?? 1, strikeSpacing: b.strikeSpacing ?? 3, schedule: schedule)
        }
        return LayerPlan(bed: bed, bells: bells, length: length)
    }

    /// A layer's source: a built-in sound by its bare name, else a file. A layer plays for the
    /// whole session, so it never depends on the network.
    static func resolveLayerSource(_ source: String, base: URL) throws(PlaybackError) -> URL {
        let trimmed = source.trimmingCharacters(in: .whitespaces)
        if let sound = BuiltInSound(rawValue: trimmed.lowercased()) { return sound.url }
        let url = try resolve(trimmed, base: base)
        guard url.isFileURL || BuiltInSound(url: url) != nil else {
            throw PlaybackError(.unsupportedFormat, underlying: "a bed or bell must be a file or a built-in sound, not \(url.scheme ?? "?")")
        }
        return url
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
            guard Track.playableSchemes.contains(scheme) || BuiltInSound(url: url) != nil else {
                throw PlaybackError(.unsupportedFormat, underlying: "session source scheme \(scheme)")
            }
            return url
        }
        if trimmed.hasPrefix("/") { return URL(fileURLWithPath: trimmed) }
        return base.appendingPathComponent(trimmed).standardizedFileURL
    }
}
