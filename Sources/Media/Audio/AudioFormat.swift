/// Tonearm's one internal format: 48 kHz, Float32, stereo, interleaved. Every decoder resamples to
/// it, so decks of different formats and rates crossfade sample by sample.
package enum AudioFormat {
    package static let sampleRate = 48_000
    package static let channelCount = 2

    /// Whole frames in `seconds` (rounded to the nearest frame).
    package static func frames(forSeconds seconds: Double) -> Int64 {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int64((seconds * Double(sampleRate)).rounded())
    }

    /// Seconds in `frames`.
    package static func seconds(forFrames frames: Int64) -> Double { Double(frames) / Double(sampleRate) }
}
