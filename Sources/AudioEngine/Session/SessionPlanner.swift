import Foundation
import PlayerCore

/// Turns a session file into the queue the state machine plays: every repeat of a stage becomes
/// its own item (with a distinct id, since a crossfade never goes from a track to itself), and a
/// stage with a `duration` gets its last repeat shortened, so it hands over exactly on time.
public enum SessionPlanner {
    /// - Parameters:
    ///   - base: the session file's folder, for relative sources.
    ///   - probe: the duration of a source in seconds (nil if unknown), for `duration` stages and
    ///     crossfade timing. Production probes with FFmpeg.
    public static func plan(
        _ session: SessionFile, base: URL, probe: (URL) -> Double? = FileDurationProbe.duration(of:)
    ) throws(PlaybackError) -> PlayRequest {
        var items: [QueueItem] = []
        let sessionName = TextSanitizer.singleLine(session.name ?? "session", maxLength: 64)
        for (index, stage) in session.stages.enumerated() {
            let url = try resolve(stage.source, base: base)
            let kind: Track.Kind = url.isFileURL ? .file : .episode
            let sourceDuration = probe(url)
            let title = stage.title ?? url.deletingPathExtension().lastPathComponent
            let into = CrossfadeSpec(
                duration: stage.crossfade ?? session.crossfade ?? 0, curve: stage.curve ?? session.curve ?? .equalPower)
            let between = CrossfadeSpec(duration: stage.loopCrossfade ?? 0, curve: stage.curve ?? session.curve ?? .equalPower)

            // Lengths of each repeat of the source.
            var lengths: [Double?]
            if let total = stage.duration {
                lengths = repeats(filling: total, source: sourceDuration, overlap: between)
                // A last piece too short for the crossfade out of the stage would shorten that
                // crossfade; share the time equally between the pieces instead.
                if lengths.count > 1, let last = lengths.last ?? nil, last < 2 * into.duration, between.duration == 0 {
                    let even = total / Double(lengths.count)
                    lengths = Array(repeating: even, count: lengths.count)
                }
            } else {
                lengths = Array(repeating: sourceDuration, count: stage.loops ?? 1)
            }
            for (repeatIndex, length) in lengths.enumerated() {
                let isLast = repeatIndex == lengths.count - 1
                let repeatTitle = lengths.count > 1 ? "\(title) (\(repeatIndex + 1)/\(lengths.count))" : title
                let track = Track(
                    id: "\(sessionName)#\(index + 1).\(repeatIndex + 1)", url: url, kind: kind, title: repeatTitle,
                    album: sessionName, duration: length, volume: stage.volume ?? 1)
                items.append(QueueItem(track: track, crossfadeIntoNext: isLast ? into : between))
            }
        }
        guard let request = PlayRequest(items: items) else {
            throw PlaybackError(.malformedData, underlying: "session file: nothing to play")
        }
        return request
    }

    /// Lengths of the repeats that fill `total` seconds with a source of `source` seconds, each
    /// repeat overlapping the previous by the (shortened) loop crossfade. Unknown source length:
    /// one piece cut at `total`.
    static func repeats(filling total: Double, source: Double?, overlap: CrossfadeSpec) -> [Double?] {
        guard let d = source, d > 0 else { return [total] }
        var lengths: [Double] = [min(d, total)]
        var covered = lengths[0]
        while covered < total - 0.001 && lengths.count < SessionFile.maximumRepeats {
            let o = overlap.effectiveDuration(outgoing: lengths[lengths.count - 1], incoming: d)
            let length = min(d, total - covered + o)
            lengths.append(length)
            covered += max(0.001, length - overlap.effectiveDuration(outgoing: lengths[lengths.count - 2], incoming: length))
        }
        return lengths
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

/// Reads a local file's duration with FFmpeg (nil for anything it cannot open or remote URLs).
public enum FileDurationProbe {
    public static func duration(of url: URL) -> Double? {
        guard url.isFileURL, let decoder = try? FFmpegDecoder(url: url) else { return nil }
        return decoder.duration
    }
}
