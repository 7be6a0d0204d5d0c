import Media
import PlayerCore

/// Opens local files with FFmpeg. Network tracks need the streaming layer's byte sources, which
/// plug in through their own `DecoderFactory`.
package struct FileDecoderFactory: DecoderFactory {
    package init() {}

    package func makeDecoder(for track: Track, load: LoadCancellation) throws(PlaybackError) -> any AudioDecoder {
        guard track.url.isFileURL else {
            throw PlaybackError(.unsupportedFormat, underlying: "no byte source for scheme \(track.url.scheme ?? "none")")
        }
        return try FFmpegDecoder(url: track.url)
    }
}
