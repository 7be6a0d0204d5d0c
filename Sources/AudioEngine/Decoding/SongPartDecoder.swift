import Foundation
import Media
import PlayerCore

/// A song that is a part of a larger file (a cue sheet's track): its image's audio from the
/// part's first sample to the sample before its end, and nothing else, as one track with its own
/// clock. Positions and seeks are the track's own (0 is its first sample), so the deck, the state
/// machine and every front end see an ordinary track.
///
/// Exact to the sample because the part is in CD frames, a whole number of samples at the
/// image's rate and at the engine's 48 kHz (`SongPart`): opening seeks the image to the start,
/// and the image's decoder decodes from the packet before it and discards up to the exact sample
/// (`FFmpegDecoder.seek`); reading stops after exactly the part's length in 48 kHz frames. The
/// last track of a sheet has no end and plays to the end of the image.
final class SongPartDecoder: AudioDecoder {
    private let image: any AudioDecoder
    private let part: SongPart
    /// The part's length in 48 kHz frames; nil to the end of the image.
    private let lengthFrames: Int64?
    /// Frames of the part read so far (the next frame's position).
    private var position: Int64 = 0

    let duration: Double?
    var skippedCorruptPackets: Int { image.skippedCorruptPackets }
    var tags: [String: String] { image.tags }

    init(image: any AudioDecoder, part: SongPart) throws(PlaybackError) {
        self.image = image
        self.part = part
        let rate = AudioFormat.sampleRate
        lengthFrames = part.endSample(rate: rate).map { $0 - part.startSample(rate: rate) }
        duration = part.duration(imageDuration: image.duration)
        if part.startFrame > 0 { try image.seek(to: part.start) }
    }

    func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws(PlaybackError) -> Int {
        var wanted = maxFrames
        if let lengthFrames { wanted = Int(min(Int64(wanted), max(0, lengthFrames - position))) }
        guard wanted > 0 else { return 0 }
        let read = try image.read(into: buffer, maxFrames: wanted)
        position += Int64(read)
        return read
    }

    /// Moves to `seconds` from the part's start, clamped to the part.
    func seek(to seconds: Double) throws(PlaybackError) {
        var target = seconds.isFinite ? max(0, seconds) : 0
        if let duration { target = min(target, duration) }
        try image.seek(to: part.start + target)
        position = AudioFormat.frames(forSeconds: target)
    }

    func interrupt() { image.interrupt() }
}
