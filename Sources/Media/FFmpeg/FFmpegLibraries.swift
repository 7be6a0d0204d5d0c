import CFFmpeg
import FFmpegLoader
import Foundation
import PlayerCore

/// FFmpeg's libraries, loaded when something first decodes (FFmpegLoader says why they are not
/// linked). Every entry point into FFmpeg calls `load` first, so a system without them gets a typed
/// error at the first file rather than a program that does not start.
///
/// FFmpeg's log goes to stderr, where it would garble the CLI's output and terminal UI; every
/// failure reaches the caller as a typed error instead. `TONEARM_FFMPEG_LOG=1` keeps FFmpeg's own
/// messages for debugging.
package enum FFmpegLibraries {
    /// nil once loaded, otherwise the dynamic linker's reason.
    private static let failure: String? = {
        var reason = [CChar](repeating: 0, count: 512)
        let status = reason.withUnsafeMutableBufferPointer { tonearm_ffmpeg_load($0.baseAddress, $0.count) }
        guard status == 0 else { return String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        if getenv("TONEARM_FFMPEG_LOG") == nil { av_log_set_level(AV_LOG_QUIET) }
        return nil
    }()

    /// Starts loading the libraries on a thread of its own and returns at once, for a command
    /// that will decode and has other work to do first; `load` then waits for this load.
    package static func startLoading() {
        Thread.detachNewThread { _ = failure }
    }

    /// Loads the libraries once; later calls only check.
    package static func load() throws(PlaybackError) {
        if let failure { throw PlaybackError(.unknown, underlying: "cannot load FFmpeg's libraries: \(failure)") }
    }
}
