import Foundation
import Media

/// Shortens the silences of speech: a run of silence longer than half a second is cut to a
/// quarter of a second, with a 10 ms fade on each side of the cut, and the frames left out are
/// counted (the time a listener saves). Shorter pauses, the rhythm of speech, pass unchanged. The
/// rule is Media3's SilenceSkippingAudioProcessor's and Overcast's Smart Speed's; written here
/// because neither is a library for Linux, and it is a few lines on the deck's own frames.
///
/// Streaming: a silent run is held until it is known to be long (then its first quarter second
/// goes out) or short (then all of it does), so up to half a second of media waits here. Used by
/// one thread (a deck's renderer).
final class SilenceTrimmer {
    /// Below this on both channels a frame is silent: -50 dBFS.
    static let threshold: Float = 0.003_16
    /// A silence longer than this is shortened...
    static let longestFrames = 24_000
    /// ...to this.
    static let keptFrames = 12_000
    static let fadeFrames = 480

    private let channels = AudioFormat.channelCount
    /// The silent run being decided, interleaved.
    private var held: [Float] = []
    /// Trimmed frames ready to be read, interleaved, from `readIndex` on.
    private var ready: [Float] = []
    private var readIndex = 0
    /// Within a long silence, past the kept part: frames are dropped until sound comes back.
    private var cutting = false
    /// Frames of fade-in left after a cut.
    private var fadeIn = 0
    /// Media frames left out so far.
    private(set) var trimmedFrames: Int64 = 0
    /// Off, frames pass unchanged (a silence being decided is let go first).
    var isEnabled = true {
        didSet { if !isEnabled, !cutting { releaseHeld() } else if !isEnabled { held.removeAll(keepingCapacity: true) } }
    }

    init() {
        held.reserveCapacity(Self.longestFrames * channels)
        ready.reserveCapacity(2 * Self.longestFrames * channels)
    }

    /// Media frames taken in but not yet readable (a silence being decided, and what waits to be read).
    var pendingFrames: Int { held.count / channels + availableFrames }

    var availableFrames: Int { (ready.count - readIndex) / channels }

    /// Takes `frames` frames of media.
    func write(_ samples: UnsafePointer<Float>, frames: Int) {
        guard isEnabled else {
            cutting = false
            ready.append(contentsOf: UnsafeBufferPointer(start: samples, count: frames * channels))
            return
        }
        for i in 0..<frames {
            let left = samples[i * channels]
            let right = samples[i * channels + 1]
            if abs(left) < Self.threshold && abs(right) < Self.threshold {
                if cutting {
                    trimmedFrames += 1
                    continue
                }
                held.append(left)
                held.append(right)
                if held.count == Self.longestFrames * channels { cutLongSilence() }
            } else {
                if cutting {
                    cutting = false
                    fadeIn = Self.fadeFrames
                }
                releaseHeld()
                var gain: Float = 1
                if fadeIn > 0 {
                    gain = Float(Self.fadeFrames - fadeIn + 1) / Float(Self.fadeFrames)
                    fadeIn -= 1
                }
                ready.append(left * gain)
                ready.append(right * gain)
            }
        }
    }

    /// The media has ended: a silence being decided goes out as it is.
    func flush() {
        if !cutting { releaseHeld() }
        held.removeAll(keepingCapacity: true)
    }

    /// Takes up to `maxFrames` trimmed frames; returns how many.
    func read(into samples: UnsafeMutablePointer<Float>, maxFrames: Int) -> Int {
        let frames = min(maxFrames, availableFrames)
        guard frames > 0 else { return 0 }
        ready.withUnsafeBufferPointer { source in
            samples.update(from: source.baseAddress! + readIndex, count: frames * channels)
        }
        readIndex += frames * channels
        if readIndex == ready.count {
            ready.removeAll(keepingCapacity: true)
            readIndex = 0
        } else if readIndex > ready.count / 2 {
            ready.removeFirst(readIndex)
            readIndex = 0
        }
        return frames
    }

    /// Forgets everything taken in (a seek); the count of trimmed frames stays.
    func reset() {
        held.removeAll(keepingCapacity: true)
        ready.removeAll(keepingCapacity: true)
        readIndex = 0
        cutting = false
        fadeIn = 0
    }

    /// The run is long: its first quarter second goes out, fading at its end; the rest is dropped.
    private func cutLongSilence() {
        let kept = Self.keptFrames
        for frame in 0..<kept {
            let toEnd = kept - frame
            let gain: Float = toEnd <= Self.fadeFrames ? Float(toEnd - 1) / Float(Self.fadeFrames) : 1
            ready.append(held[frame * channels] * gain)
            ready.append(held[frame * channels + 1] * gain)
        }
        trimmedFrames += Int64(Self.longestFrames - kept)
        held.removeAll(keepingCapacity: true)
        cutting = true
    }

    private func releaseHeld() {
        guard !held.isEmpty else { return }
        ready.append(contentsOf: held)
        held.removeAll(keepingCapacity: true)
    }
}
