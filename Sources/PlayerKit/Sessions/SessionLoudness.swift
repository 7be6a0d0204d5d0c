import AudioEngine
import Foundation
import PlayerCore

/// Session levelling needs to know every stage before the first plays: one gain for the whole
/// session, so its stages keep the loudness they were mastered at relative to each other (the
/// album gain of ReplayGain). This measures what is not known yet (a stage kept in the store or
/// tagged costs nothing; a long file is measured on every core) and gives each stage its own
/// loudness and the session's.
package enum SessionLoudness {
    /// `request` with loudness on its stages. A stage that cannot be measured (a stream, a broken
    /// file) leaves the session unknown, and session levelling falls back to each track's own.
    package static func prepare(_ request: PlayRequest, store: (any LoudnessStore)?) -> PlayRequest {
        var tracks = request.items.map(\.track)
        for index in tracks.indices where tracks[index].loudness == nil && tracks[index].url.isFileURL {
            if let known = store?.loudness(of: tracks[index]) {
                tracks[index].loudness = known
            } else if let measured = try? FileLoudness.measure(tracks[index].url) {
                store?.keep(measured, of: tracks[index])
                tracks[index].loudness = measured
            }
        }
        let session = Loudness.combined(tracks.map { ($0.loudness, $0.duration ?? 0) })
        let items = zip(request.items, tracks).map { item, track in
            var track = track
            track.sessionLoudness = session
            return QueueItem(track: track, crossfadeIntoNext: item.crossfadeIntoNext)
        }
        return PlayRequest(items: items, startPosition: request.startPosition) ?? request
    }

    /// `replacement` ready for session levelling when `mode` is `session` and it plays several
    /// items (a session, or files given together); as it is otherwise. Measures on a thread of
    /// its own.
    package static func prepared(
        _ replacement: PlayerEvent.Replacement, mode: LoudnessMode, store: (any LoudnessStore)?
    ) async -> PlayerEvent.Replacement {
        guard mode == .session, case .play(let request) = replacement, request.items.count > 1 else { return replacement }
        return .play(await BlockingCall.onOwnThread { prepare(request, store: store) })
    }
}
