import Foundation
import PlayerCore
import Presentation

/// Sample tracks, episodes and one or more states per `PlayerState` case, shared by the tests of
/// the view states and of the terminal screens that render them.
package enum Samples {
    package static let song = Track(
        id: "song", url: URL(fileURLWithPath: "/music/a.flac"), kind: .file, title: "Song A", artist: "Artist A",
        album: "Album A", duration: 240)
    package static let next = Track(
        id: "next", url: URL(fileURLWithPath: "/music/b.flac"), kind: .file, title: "Song B", artist: "Artist B",
        duration: 200)
    package static let station = Station(
        id: "fip", name: "FIP", url: URL(string: "https://icecast.radiofrance.fr/fip-hifi.aac")!, genre: "Eclectic")
    package static let episode = Episode(
        id: "ep42", title: "Episode 42: Resilience", podcastTitle: "The Swift Show",
        audioURL: URL(string: "https://cdn.example.com/ep42.mp3"), duration: 3600)
    package static let episodeWithoutAudio = Episode(
        id: "ep43", title: "Episode 43: Silence", podcastTitle: "The Swift Show", audioURL: nil, duration: 1800)

    package static var episodeTrack: Track { try! episode.track() }

    package static let now = PlayerTime(seconds: 100)

    package static func snapshot(_ progress: Float, curve: FadeCurve = .equalPower) -> CrossfadePauseSnapshot {
        let g = curve.gains(at: Double(progress))
        return CrossfadePauseSnapshot(
            activeVolume: Float(g.outgoing), inactiveVolume: Float(g.incoming), activePosition: 230,
            inactivePosition: 5, activePlayer: .a, originalDuration: 10, curve: curve, takenAt: now)
    }

    package static let network = PlaybackError(.connectionFailed)
    package static let missingURL = PlaybackError(.missingAudioURL)

    /// One labelled state per case, plus the variants that show differently (live, underrun, both
    /// resume strategies, a scheduled and a waiting reconnect, a recoverable and a final failure).
    package static let states: [Sample] = [
        Sample("idle", .idle),
        Sample("preparing", .preparing(track: episodeTrack)),
        Sample("preparingCrossfade", .preparingCrossfade(currentTrack: song, nextTrack: next)),
        Sample("playing", .playing(track: song)),
        Sample("playing live", .playing(track: station.track)),
        Sample("buffering live initial", .buffering(track: station.track, progress: 0.4, reason: .initial)),
        Sample("buffering episode underrun", .buffering(track: episodeTrack, progress: 0.75, reason: .underrun)),
        Sample("seeking episode", .seeking(track: episodeTrack, from: 754, to: 1_200)),
        Sample("crossfading 47%", .crossfading(fromTrack: song, toTrack: next, progress: 0.47, canQuickFinish: false)),
        Sample("paused", .paused(track: song, position: 61)),
        Sample(
            "crossfadePaused continue",
            .crossfadePaused(
                fromTrack: song, toTrack: next, progress: 0.3, resumeStrategy: .continueFromProgress,
                savedState: snapshot(0.3))),
        Sample(
            "crossfadePaused quickFinish",
            .crossfadePaused(
                fromTrack: song, toTrack: next, progress: 0.8, resumeStrategy: .quickFinish,
                savedState: snapshot(0.8, curve: .linear))),
        Sample("fadingOut", .fadingOut(track: song, targetDuration: 2)),
        Sample(
            "reconnecting scheduled",
            .reconnecting(track: station.track, attempt: 2, maxAttempts: 8, nextRetryAt: now + 2.1, cause: network)),
        Sample(
            "reconnecting waiting",
            .reconnecting(track: station.track, attempt: 1, maxAttempts: 8, nextRetryAt: nil, cause: PlaybackError(.offline))),
        Sample("finished", .finished),
        Sample(
            "failed recoverable",
            .failed(
                error: network, recoverable: true,
                resumePoint: ResumePoint(track: episodeTrack, position: 754, duration: 3600))),
        Sample("failed final", .failed(error: missingURL, recoverable: false, resumePoint: nil)),
    ]

    package static func context(_ language: Language, connectivity: Connectivity = .online) -> PlaybackContext {
        PlaybackContext(
            episode: nil, podcastTitle: nil, station: nil, connectivity: connectivity, position: 754, duration: nil,
            now: now, language: language)
    }
}

package struct Sample: Sendable {
    package let label: String
    package let state: PlayerState
    package init(_ label: String, _ state: PlayerState) {
        self.label = label
        self.state = state
    }
}
