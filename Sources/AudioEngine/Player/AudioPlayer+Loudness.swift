import Foundation
import PlayerCore

/// Levelling: loudness learned for each track (kept, tagged or measured) and the gain published.
extension AudioPlayer {
    /// The levelling mode and the current track's gain, when either changed (the first time with
    /// the first state).
    func publishLoudness() {
        let levelling = machine.loudness
        let track = machine.state.currentTrack
        let gain = track.flatMap { levelling.gain(track: knownLoudness[$0.id] ?? $0.loudness, session: knownAlbumLoudness[$0.id] ?? $0.sessionLoudness) }
        if let published = publishedLoudness, published.0 == levelling, published.1 == gain { return }
        publishedLoudness = (levelling, gain)
        continuation.yield(.loudness(levelling, trackGain: gain, audioTime: audioTime))
    }

    /// How a track's loudness became known.
    enum Learned {
        /// Kept or tagged, found by the loader: its deck starts with it.
        case found
        /// Measured by the loader before the deck was made (rendering): kept; the deck has it.
        case measuredBeforeTheDeck
        /// Measured in the background while the deck plays: kept, and the deck glides to it.
        case measuredWhilePlaying
    }

    func learned(_ loudness: Loudness, of track: Track, _ how: Learned) {
        knownLoudness[track.id] = loudness
        measuring.remove(track.id)
        if how != .found {
            log.loudness(loudness, of: track)
            options.loudnessStore?.keep(loudness, of: track)
        }
        if how == .measuredWhilePlaying { engine.enqueue(.trackLoudness(trackID: track.id, loudness)) }
        publishLoudness()
    }

    /// The loader found an album gain tag on `track`, which its deck already uses.
    func learned(albumLoudness loudness: Loudness, of track: Track) {
        knownAlbumLoudness[track.id] = loudness
        publishLoudness()
    }

    /// Measures a local file whose loudness is not known, on a background thread (every core for
    /// a long one); until it is known the deck is levelled adaptively, then glides to its gain.
    func measureInBackground(_ track: Track) {
        guard machine.loudness.isOn, track.url.isFileURL, track.loudness == nil, knownLoudness[track.id] == nil,
            !measuring.contains(track.id)
        else { return }
        measuring.insert(track.id)
        let log = self.log
        let executor = self.executor
        Thread.detachNewThread { [weak self] in
            Thread.current.qualityOfService = .utility
            do throws(PlaybackError) {
                guard let loudness = try FileLoudness.measure(track.url) else { return }
                Task(executorPreference: executor) { await self?.learned(loudness, of: track, .measuredWhilePlaying) }
            } catch {
                log.loudnessNotMeasured(track, error: error)
            }
        }
    }
}
