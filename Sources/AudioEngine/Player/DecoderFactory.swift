import Foundation
import PlayerCore

/// Makes a decoder for a track. Files go to FFmpeg; streaming plugs its byte sources in here.
package protocol DecoderFactory: Sendable {
    /// Opens `track`. Runs on a loader thread and may block (connecting, probing); `load` is
    /// cancelled when the player abandons the load, and a factory that blocks must then give up
    /// promptly (register what to close with `load.onCancel`).
    func makeDecoder(for track: Track, load: LoadCancellation) throws(PlaybackError) -> any AudioDecoder
}
