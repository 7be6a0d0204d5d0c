import Foundation
import PlayerCore

/// What one `IcyDemuxer.feed` call produced.
package struct IcyOutput: Sendable, Equatable {
    /// The chunk's audio bytes with every metadata length byte and block removed.
    package var audio: [UInt8]
    /// Metadata blocks completed in this chunk, in stream order.
    package var metadata: [IcyMetadata]

    package init(audio: [UInt8] = [], metadata: [IcyMetadata] = []) {
        self.audio = audio
        self.metadata = metadata
    }
}

/// Splits an ICY stream (`Icy-MetaData: 1` answered with `icy-metaint: N`) into audio and metadata.
///
/// The stream is: N audio bytes, one length byte L, `16 * L` metadata bytes (L = 0: none), repeat.
/// The demuxer is a pure state machine: it accepts any chunking (a boundary inside audio, right on
/// the length byte, or inside a block) and keeps only the one partial block between calls.
///
/// Reporting: length-0 blocks and all-NUL blocks carry nothing and are not reported; every other
/// block is reported, including an unchanged repeat of the previous title (servers resend the title
/// periodically; deduplicating is the consumer's choice, and a repeat after a reconnect is useful).
///
/// Errors (typed, and sticky: after one, every further `feed`/`finish` throws the same error):
/// - a completed block that does not look like metadata (`IcyMetadata.looksLikeMetadata`) means the
///   length byte lied or the stream lost step: `.malformedData`. Audio of that chunk is not
///   returned; the stream is broken and the caller reconnects.
/// - the body ending inside a block or right after a non-zero length byte (`finish()`):
///   `.connectionLost`, because that is a cut connection, the case the reconnect supervisor retries,
///   not bad data from the server.
package struct IcyDemuxer: Sendable {
    /// Largest `icy-metaint` accepted: real servers use 8,192-65,536; a larger value is a broken or
    /// hostile header and would let a server make us treat megabytes as one audio run.
    package static let maxMetaInterval = 1 << 20

    /// The `icy-metaint` in use; nil when the stream carries no metadata (pass-through).
    package let metaInterval: Int?

    private enum State: Sendable {
        /// This many audio bytes remain before the next length byte.
        case audio(remaining: Int)
        /// The next byte is a length byte.
        case lengthByte
        /// Collecting a block of `expected` bytes.
        case metadata(expected: Int, buffer: [UInt8])
        case failed(PlaybackError)
    }

    private var state: State

    /// - Parameter metaInterval: the `icy-metaint` header's value; nil or 0 turns demuxing off.
    /// - Throws: `.malformedData` for a negative interval or one above `maxMetaInterval`.
    package init(metaInterval: Int?) throws(PlaybackError) {
        guard let interval = metaInterval, interval != 0 else {
            self.metaInterval = nil
            self.state = .audio(remaining: Int.max)
            return
        }
        guard interval > 0, interval <= Self.maxMetaInterval else {
            throw PlaybackError(.malformedData, underlying: "icy-metaint \(interval) outside 1...\(Self.maxMetaInterval)")
        }
        self.metaInterval = interval
        self.state = .audio(remaining: interval)
    }

    /// Parses an `icy-metaint` header value (nil header or empty: no metadata).
    /// - Throws: `.malformedData` when the value is not a number or is out of range.
    package init(metaIntervalHeader header: String?) throws(PlaybackError) {
        guard let header, !header.trimmingCharacters(in: .whitespaces).isEmpty else {
            try self.init(metaInterval: nil)
            return
        }
        guard let value = Int(header.trimmingCharacters(in: .whitespaces)) else {
            throw PlaybackError(.malformedData, underlying: "icy-metaint is not a number")
        }
        try self.init(metaInterval: value)
    }

    /// Consumes the next chunk of the body.
    package mutating func feed<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) throws(PlaybackError) -> IcyOutput {
        if case .failed(let error) = state { throw error }
        guard let interval = metaInterval else { return IcyOutput(audio: Array(bytes)) }

        // Walks the caller's bytes in place (a network buffer's view): audio is copied once, into
        // the output, and only metadata blocks are gathered separately.
        var output = IcyOutput()
        output.audio.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let available = bytes.distance(from: index, to: bytes.endIndex)
            switch state {
            case .audio(let remaining):
                let take = min(remaining, available)
                let end = bytes.index(index, offsetBy: take)
                output.audio.append(contentsOf: bytes[index..<end])
                index = end
                state = take == remaining ? .lengthByte : .audio(remaining: remaining - take)
            case .lengthByte:
                let length = Int(bytes[index]) * 16
                index = bytes.index(after: index)
                state = length == 0 ? .audio(remaining: interval) : .metadata(expected: length, buffer: [])
            case .metadata(let expected, var buffer):
                state = .lengthByte  // drop the buffer from `state` so the append below does not copy
                let take = min(expected - buffer.count, available)
                let end = bytes.index(index, offsetBy: take)
                if buffer.isEmpty { buffer.reserveCapacity(expected) }
                buffer.append(contentsOf: bytes[index..<end])
                index = end
                guard buffer.count == expected else {
                    state = .metadata(expected: expected, buffer: buffer)
                    continue
                }
                guard IcyMetadata.looksLikeMetadata(buffer) else {
                    let error = PlaybackError(
                        .malformedData,
                        underlying: "ICY metadata block of \(expected) bytes is not metadata (lying length byte?)")
                    state = .failed(error)
                    throw error
                }
                if !IcyMetadata.isPaddingOnly(buffer) { output.metadata.append(IcyMetadata.parse(buffer)) }
                state = .audio(remaining: interval)
            case .failed(let error):
                throw error
            }
        }
        return output
    }

    /// Call at the end of the body. A stream may end anywhere in audio or right before a length
    /// byte; ending inside a block (or right after a non-zero length byte) is a cut.
    /// - Throws: `.connectionLost` for a cut inside a block; the stored error after a failure.
    package func finish() throws(PlaybackError) {
        switch state {
        case .audio, .lengthByte:
            return
        case .metadata(let expected, let buffer):
            throw PlaybackError(
                .connectionLost,
                underlying: "stream ended inside an ICY metadata block (\(buffer.count) of \(expected) bytes)")
        case .failed(let error):
            throw error
        }
    }
}
