import Foundation

/// Where a song lies inside a larger file: a track of a cue sheet's image. Positions are in CD
/// frames (75 a second), as a cue sheet gives them, because a CD frame is a whole number of
/// samples at every rate Tonearm meets (588 at 44.1 kHz, 640 at 48 kHz): the track starts and
/// ends on an exact sample of the source and of the 48 kHz stream the engine plays, never on a
/// rounded second.
public struct SongPart: Codable, Sendable, Hashable {
    /// CD frames a second, the unit of `INDEX` in a cue sheet.
    public static let framesPerSecond = 75

    /// The file the audio is in, relative to the music directory, `/`-separated.
    public var image: String
    /// The first CD frame of the track (its `INDEX 01`).
    public var startFrame: Int
    /// The first CD frame after the track (the next track's `INDEX 01`); nil: to the end of the
    /// image.
    public var endFrame: Int?

    public init(image: String, startFrame: Int, endFrame: Int?) {
        self.image = image
        self.startFrame = max(0, startFrame)
        self.endFrame = endFrame.map { max($0, self.startFrame) }
    }

    /// Seconds from the image's start to the track's.
    public var start: Double { Double(startFrame) / Double(Self.framesPerSecond) }
    /// Seconds from the image's start to the track's end, nil to the end.
    public var end: Double? { endFrame.map { Double($0) / Double(Self.framesPerSecond) } }

    /// The first sample of the track at `rate` samples a second.
    public func startSample(rate: Int) -> Int64 { Int64(startFrame) * Int64(rate) / Int64(Self.framesPerSecond) }
    /// The first sample after the track at `rate`, nil to the end of the image.
    public func endSample(rate: Int) -> Int64? { endFrame.map { Int64($0) * Int64(rate) / Int64(Self.framesPerSecond) } }

    /// The track's length, given the image's when it runs to the end.
    public func duration(imageDuration: Double?) -> Double? {
        if let end { return end - start }
        return imageDuration.map { max(0, $0 - start) }
    }
}
