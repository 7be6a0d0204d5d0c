import Foundation
import Media
import PlayerCore

/// Opens local files with FFmpeg, and Tonearm's own sounds (`tonearm:NAME`) with their
/// synthesiser. Network tracks need the streaming layer's byte sources, which plug in through
/// their own `DecoderFactory`.
package struct FileDecoderFactory: DecoderFactory {
    package init() {}

    /// Whether this factory opens `url` (a local file or a built-in sound) rather than the network.
    package static func opens(_ url: URL) -> Bool {
        url.isFileURL || SynthesizedDecoder.addresses(url)
    }

    package func makeDecoder(for track: Track, load: LoadCancellation) throws(PlaybackError) -> any AudioDecoder {
        if SynthesizedDecoder.addresses(track.url) { return try SynthesizedDecoder(url: track.url) }
        guard track.url.isFileURL else {
            throw PlaybackError(.unsupportedFormat, underlying: "no byte source for scheme \(track.url.scheme ?? "none")")
        }
        let decoder = try FFmpegDecoder(url: track.url)
        // A cue sheet's track: its part of the image, to the sample.
        if let part = track.tags?.part { return try SongPartDecoder(image: decoder, part: part) }
        return decoder
    }
}
