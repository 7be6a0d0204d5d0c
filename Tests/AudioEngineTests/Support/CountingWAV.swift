import Foundation

/// A 48 kHz, 16-bit stereo WAV whose frames number themselves: the left sample of frame n is
/// n / 32768 (so at most 32 768 frames) and the right one is a fixed marker / 32768, which tells
/// two such files apart. Decoded audio then says exactly which source frame each output frame is.
enum CountingWAV {
    static let sampleRate = 48_000

    static func data(frames: Int, marker: Int16 = 0) -> Data {
        precondition(frames <= 32_768, "frame numbers must fit a 16-bit sample")
        var data = Data()
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { data.append(contentsOf: $0) } }
        func u16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8))
        u32(36 + frames * 4)
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        u32(16); u16(1); u16(2); u32(sampleRate); u32(sampleRate * 4); u16(4); u16(16)
        data.append(contentsOf: Array("data".utf8))
        u32(frames * 4)
        for i in 0..<frames {
            withUnsafeBytes(of: Int16(truncatingIfNeeded: i).littleEndian) { data.append(contentsOf: $0) }
            withUnsafeBytes(of: marker.littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }

    /// The decoded value of source frame `n`'s left sample.
    static func sample(_ n: Int) -> Float { Float(Int16(truncatingIfNeeded: n)) / 32_768 }

    /// The frame number (or marker) a decoded sample carries.
    static func number(_ sample: Float) -> Int { Int((sample * 32_768).rounded()) }
}
