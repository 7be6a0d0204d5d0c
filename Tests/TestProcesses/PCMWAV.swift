import Foundation

/// WAV files the tests write sample by sample (16-bit PCM, stereo): files whose samples say which
/// frame they are, so decoded audio can be checked frame by frame.
package enum PCMWAV {
    /// A stereo 16-bit WAV of `frames` frames whose frame i holds (left(i), right(i)).
    package static func data(frames: Int, sampleRate: Int = 48_000, left: (Int) -> Int16, right: (Int) -> Int16) -> Data {
        var data = Data()
        data.reserveCapacity(44 + frames * 4)
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { data.append(contentsOf: $0) } }
        func u16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8))
        u32(36 + frames * 4)
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        u32(16); u16(1); u16(2); u32(sampleRate); u32(sampleRate * 4); u16(4); u16(16)
        data.append(contentsOf: Array("data".utf8))
        u32(frames * 4)
        for i in 0..<frames {
            withUnsafeBytes(of: left(i).littleEndian) { data.append(contentsOf: $0) }
            withUnsafeBytes(of: right(i).littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }
}
