import Foundation

/// Where measured loudness is kept between runs (the library): the player asks before a track
/// plays, and tells it what it measured, so a track is measured once.
public protocol LoudnessStore: Sendable {
    /// The kept loudness of the track's source, if it was measured before and is unchanged.
    func loudness(of track: Track) -> Loudness?
    /// Keeps a measurement (a failure to keep it is the store's to log; playback goes on).
    func keep(_ loudness: Loudness, of track: Track)
}
