import Foundation
import PlayerCore
import Testing

@testable import MPRIS

/// The documented mapping from the player's state to what MPRIS clients see.
@Suite("MPRIS state mapping")
struct MPRISStateTests {
    static let file = Track(id: "f", url: URL(fileURLWithPath: "/music/a.flac"), kind: .file, title: "A", artist: "Band", album: "LP", duration: 200)
    static let next = Track(id: "n", url: URL(fileURLWithPath: "/music/b.flac"), kind: .file, title: "B", duration: 100)
    static let live = Track(id: "l", url: URL(string: "http://radio.example/live")!, kind: .liveStream, title: "Radio X")

    @Test func playbackStatusFollowsTheDocumentedMapping() {
        let playing: [PlayerState] = [
            .playing(track: Self.file), .preparing(track: Self.file), .buffering(track: Self.live, progress: 0.5, reason: .underrun),
            .crossfading(fromTrack: Self.file, toTrack: Self.next, progress: 0.4, canQuickFinish: false),
            .preparingCrossfade(currentTrack: Self.file, nextTrack: Self.next), .fadingOut(track: Self.file, targetDuration: 1),
            .reconnecting(track: Self.live, attempt: 1, maxAttempts: 8, nextRetryAt: nil, cause: PlaybackError(.connectionLost)),
        ]
        #expect(playing.allSatisfy { MPRISState(state: $0).status == .playing })
        #expect(MPRISState(state: .paused(track: Self.file, position: 3)).status == .paused)
        for stopped: PlayerState in [.idle, .finished, .failed(error: PlaybackError(.connectionLost), recoverable: true, resumePoint: nil)] {
            #expect(MPRISState(state: stopped).status == .stopped)
        }
    }

    @Test func capabilitiesComeFromAllowedActions() {
        let playing = MPRISState(state: .playing(track: Self.file), position: 12.5, duration: 200)
        #expect(playing.canPause && playing.canPlay && playing.canSeek && playing.canGoNext && !playing.canGoPrevious)
        #expect(playing.positionMicroseconds == 12_500_000 && playing.lengthMicroseconds == 200_000_000)
        let idle = MPRISState(state: .idle)
        #expect(!idle.canPause && !idle.canSeek && !idle.canGoNext && idle.canPlay)
        #expect(idle.trackID == MPRISState.noTrack)
        let fading = MPRISState(state: .fadingOut(track: Self.file, targetDuration: 1))
        #expect(!fading.canPlay && !fading.canPause && !fading.canSeek)
    }

    @Test func aLiveStreamHasNoLengthNoSeekAndShowsItsAnnouncedTitle() {
        let metadata = NowPlayingMetadata(title: "So What", artist: "Miles Davis", station: "Jazz FM", artwork: .real)
        let state = MPRISState(state: .playing(track: Self.live), metadata: metadata, position: 40, duration: nil)
        #expect(state.lengthMicroseconds == nil && !state.canSeek && state.positionMicroseconds == 0)
        #expect(state.title == "So What" && state.artist == "Miles Davis" && state.album == "Jazz FM")
    }

    @Test func trackIDsAreValidObjectPathsForAnyID() {
        for id in ["arg1:tone.flac", "station:1", "ünïcødé / path", ""] {
            let path = MPRISState.objectPath(for: id)
            #expect(path.hasPrefix("/org/tonearm/track/t"))
            #expect(path.dropFirst(1).split(separator: "/").allSatisfy { $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } && $0.allSatisfy(\.isASCII) })
        }
        #expect(MPRISState.objectPath(for: "a") != MPRISState.objectPath(for: "b"))
    }

    @Test func onlyChangedPropertiesAreAnnounced() {
        let playing = MPRISState(state: .playing(track: Self.file), position: 1)
        let later = MPRISState(state: .playing(track: Self.file), position: 2)
        #expect(later.changedProperties(since: playing).isEmpty, "position alone is never announced")
        let paused = MPRISState(state: .paused(track: Self.file, position: 2))
        #expect(Set(paused.changedProperties(since: playing)) == ["PlaybackStatus", "CanPause", "CanGoNext"])
        #expect(MPRISState(state: .playing(track: Self.next)).changedProperties(since: playing).contains("Metadata"))
    }

    /// Volume is announced when it changes, and a client's Set of it becomes the volume command
    /// (negative values are 0, as the specification says).
    @Test func volumeIsAnnouncedAndSettable() {
        let playing = MPRISState(state: .playing(track: Self.file), volume: .full)
        let quieter = MPRISState(state: .playing(track: Self.file), volume: Volume(0.5))
        #expect(quieter.changedProperties(since: playing) == ["Volume"])
        #expect(quieter.volume == 0.5)
        #expect(MPRISService.Command.setVolume(0.5).playerCommand(currentTrack: nil) == .volume(.to(Volume(0.5))))
        #expect(MPRISService.Command.setVolume(9).playerCommand(currentTrack: nil) == .volume(.to(Volume(1.5))))
    }

    @Test func levellingIsInTheMetadataWhileOn() {
        let playing = PlayerState.playing(track: Self.file)
        #expect(MPRISState(state: playing, loudness: (LoudnessLevelling(mode: .track), -4.25)).loudness == "track -4.2 dB")
        #expect(MPRISState(state: playing, loudness: (LoudnessLevelling(mode: .session), 1)).loudness == "session +1.0 dB")
        #expect(MPRISState(state: playing, loudness: (LoudnessLevelling(mode: .track), nil)).loudness == "track adaptive")
        #expect(MPRISState(state: playing, loudness: (.off, nil)).loudness == nil)
        let before = MPRISState(state: playing, loudness: (LoudnessLevelling(mode: .track), -4))
        let after = MPRISState(state: playing, loudness: (LoudnessLevelling(mode: .track), -2))
        #expect(after.changedProperties(since: before) == ["Metadata"])
    }
}
