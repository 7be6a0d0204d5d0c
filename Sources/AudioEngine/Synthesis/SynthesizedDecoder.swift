import Foundation
import Media
import PlayerCore

/// Plays one of Tonearm's own sounds (`tonearm:NAME`) as a decoder, so the deck, the mixer, a
/// loop and the state machine treat it like any file: 48 kHz interleaved stereo Float32.
///
/// The bowl is finite (its `duration` is known) and is rendered once, before the first read; the
/// chime's one repeat likewise. Noise is made as it is read and silence is zeros: both are
/// endless (no `duration`), and end only where a loop's length or the player cuts them. `read`
/// never allocates, so it may run on the render path.
final class SynthesizedDecoder: AudioDecoder {
    let sound: BuiltInSound
    let duration: Double?
    var skippedCorruptPackets: Int { 0 }
    /// Every sound is computed (its tables made in `init`), so the render thread reads it itself.
    var isSafeOnRenderThread: Bool { true }

    /// The bowl, or one repeat of the chime (mono); empty for the others.
    private let table: [Float]
    private var noise: NoiseGenerator?
    /// The frame the next read starts at.
    private var position: Int64 = 0

    /// The seeds of the noise beds: fixed, so a bed is the same noise in every session and render.
    static let brownSeed: UInt64 = 0x62_726F_776E  // "brown"
    static let pinkSeed: UInt64 = 0x70_696E_6B  // "pink"

    init(sound: BuiltInSound) {
        self.sound = sound
        duration = Self.duration(of: sound)
        switch sound {
        case .bowl: table = BowlBell.samples
        case .alarm: table = AlarmChime.period
        case .brown, .pink, .silence: table = []
        }
        switch sound {
        case .brown: noise = NoiseGenerator(colour: .brown, seed: Self.brownSeed)
        case .pink: noise = NoiseGenerator(colour: .pink, seed: Self.pinkSeed)
        case .bowl, .alarm, .silence: noise = nil
        }
    }

    /// The sound a `tonearm:` URL names; any other name is an unsupported format, named.
    convenience init(url: URL) throws(PlaybackError) {
        guard let sound = BuiltInSound(url: url) else {
            let name = url.absoluteString.dropFirst(BuiltInSound.scheme.count + 1)
            let known = BuiltInSound.allCases.map(\.rawValue).joined(separator: ", ")
            throw PlaybackError(.unsupportedFormat, underlying: "no built-in sound named \"\(name)\" (there are \(known))")
        }
        self.init(sound: sound)
    }

    /// Whether `url` addresses a built-in sound (known or not): the scheme decides who opens it.
    static func addresses(_ url: URL) -> Bool {
        url.scheme?.lowercased() == BuiltInSound.scheme
    }

    /// The sound's length, known without rendering it; nil for the endless ones.
    static func duration(of sound: BuiltInSound) -> Double? {
        sound == .bowl ? AudioFormat.seconds(forFrames: Int64(BowlBell.frames)) : nil
    }

    func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws(PlaybackError) -> Int {
        guard maxFrames > 0 else { return 0 }
        let n: Int
        switch sound {
        case .bowl:
            n = Int(max(0, min(Int64(maxFrames), Int64(table.count) - position)))
            copyTable(into: buffer, frames: n, from: Int(position))
        case .alarm:
            n = maxFrames
            var written = 0
            var index = Int(position % Int64(table.count))
            while written < n {
                let run = min(n - written, table.count - index)
                copyTable(into: buffer + written * AudioFormat.channelCount, frames: run, from: index)
                written += run
                index = 0
            }
        case .brown, .pink:
            n = maxFrames
            noise?.render(into: buffer, frames: n)
        case .silence:
            n = maxFrames
            buffer.update(repeating: 0, count: n * AudioFormat.channelCount)
        }
        position += Int64(n)
        return n
    }

    /// Bowl: any position within it (the end reads as the end). Chime and silence: any position,
    /// exactly (the chime's repeats are all alike). Noise: the generator lands on the very frames
    /// playing from the start would have reached there (`NoiseGenerator`).
    func seek(to seconds: Double) throws(PlaybackError) {
        var target = AudioFormat.frames(forSeconds: seconds)
        if sound == .bowl { target = min(target, Int64(table.count)) }
        position = target
        noise?.seek(toFrame: target)
    }

    /// The mono table's frames from `start`, to both channels.
    private func copyTable(into buffer: UnsafeMutablePointer<Float>, frames: Int, from start: Int) {
        table.withUnsafeBufferPointer { samples in
            for i in 0..<frames {
                let value = samples[start + i]
                buffer[2 * i] = value
                buffer[2 * i + 1] = value
            }
        }
    }
}
