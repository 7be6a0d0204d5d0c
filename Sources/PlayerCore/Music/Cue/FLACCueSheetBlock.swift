import Foundation

/// A FLAC file's `CUESHEET` metadata block (block type 5, RFC 9639 section 8.7), read from its
/// body bytes: each track's number, whether it is audio, and its index points in samples.
///
/// Read by hand rather than through FFmpeg: libavformat's flac demuxer does turn the block into
/// chapters, but each chapter starts at the track's offset, which is its first index point (the
/// pregap's `INDEX 00` when there is one), and the index points themselves are dropped, so a
/// track's `INDEX 01` (where a cue sheet's track starts, `CueSheetParser`) cannot be had from
/// them; FFmpeg 5.1 also refuses to open a file whose block has no track but the lead-out, so a
/// hostile block would cost the whole file. The layout is fixed-size fields, so a bounded reader
/// is short.
///
/// Bounded and fuzz-safe: every read is checked against the body's length, at most
/// `maxTracks` tracks (the format's one-byte count) and `maxIndexPoints` points each; anything
/// short, or a track whose offset goes back, is `.malformedData`, never a crash. Pure: no I/O.
public struct FLACCueSheetBlock: Sendable, Hashable {
    /// The metadata block type of a cue sheet.
    public static let blockType: UInt8 = 5
    /// The lead-out track's number on a CD-DA sheet, and on any other.
    public static let leadOutCD = 170
    public static let leadOutOther = 255
    public static let maxTracks = 100
    public static let maxIndexPoints = 100
    /// The body of the largest block a sheet can make: the header, 100 tracks of 100 points.
    public static let maxBytes = 396 + maxTracks * (36 + maxIndexPoints * 12)

    public struct IndexPoint: Sendable, Hashable {
        /// Samples from the track's offset.
        public var offset: UInt64
        public var number: Int
    }

    public struct Track: Sendable, Hashable {
        /// Samples from the start of the stream to the track's first index point.
        public var offset: UInt64
        public var number: Int
        public var isAudio: Bool
        public var indexPoints: [IndexPoint]

        /// Where the track starts in samples: its `INDEX 01`, else its first point (as a `.cue`'s
        /// track is read).
        public var start: UInt64? {
            guard let point = indexPoints.first(where: { $0.number == 1 }) ?? indexPoints.first else { return nil }
            let (sum, overflow) = offset.addingReportingOverflow(point.offset)
            return overflow ? nil : sum
        }
    }

    public var isCD: Bool
    /// Every track in order, the lead-out last.
    public var tracks: [Track]

    public init(isCD: Bool, tracks: [Track]) {
        self.isCD = isCD
        self.tracks = tracks
    }

    /// The block from its body (the bytes after its 4-byte header).
    public static func parse(_ body: Data) throws(PlaybackError) -> FLACCueSheetBlock {
        guard body.count <= maxBytes else {
            throw PlaybackError(.documentTooLarge, underlying: "FLAC cue sheet block: \(body.count) bytes, over \(maxBytes)")
        }
        var reader = ByteReader(bytes: [UInt8](body))
        // Media catalog number (128), lead-in samples (8), CD flag and reserved (259).
        try reader.skip(128 + 8)
        let isCD = try reader.byte() & 0x80 != 0
        try reader.skip(258)
        let count = Int(try reader.byte())
        guard count >= 1, count <= maxTracks else { throw malformed("\(count) tracks") }
        var tracks: [Track] = []
        for _ in 0..<count {
            let offset = try reader.uint64()
            let number = Int(try reader.byte())
            try reader.skip(12)  // ISRC
            let isAudio = try reader.byte() & 0x80 == 0
            try reader.skip(13)
            let pointCount = Int(try reader.byte())
            guard pointCount <= maxIndexPoints else { throw malformed("\(pointCount) index points") }
            var points: [IndexPoint] = []
            for _ in 0..<pointCount {
                let pointOffset = try reader.uint64()
                let pointNumber = Int(try reader.byte())
                try reader.skip(3)
                points.append(IndexPoint(offset: pointOffset, number: pointNumber))
            }
            if let previous = tracks.last, previous.offset > offset { throw malformed("a track starts before the one ahead of it") }
            tracks.append(Track(offset: offset, number: number, isAudio: isAudio, indexPoints: points))
        }
        return FLACCueSheetBlock(isCD: isCD, tracks: tracks)
    }

    private static func malformed(_ what: String) -> PlaybackError {
        PlaybackError(.malformedData, underlying: "FLAC cue sheet block: \(what)")
    }

    /// Reads big-endian fields, refusing to read past the end.
    private struct ByteReader {
        let bytes: [UInt8]
        var position = 0

        mutating func skip(_ count: Int) throws(PlaybackError) {
            guard count <= bytes.count - position else { throw FLACCueSheetBlock.malformed("cut short") }
            position += count
        }

        mutating func byte() throws(PlaybackError) -> UInt8 {
            guard position < bytes.count else { throw FLACCueSheetBlock.malformed("cut short") }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func uint64() throws(PlaybackError) -> UInt64 {
            var value: UInt64 = 0
            for _ in 0..<8 { value = value << 8 | UInt64(try byte()) }
            return value
        }
    }
}
