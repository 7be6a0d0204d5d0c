import CFFmpeg
import Foundation

/// FFmpeg's log goes to stderr, where it would garble the CLI's output and terminal UI; every
/// failure reaches the caller as a typed error instead. `TONEARM_FFMPEG_LOG=1` keeps FFmpeg's own
/// messages for debugging. Every entry point into FFmpeg calls `setUp` first.
enum FFmpegLog {
    private static let quiet: Void = {
        if getenv("TONEARM_FFMPEG_LOG") == nil { av_log_set_level(AV_LOG_QUIET) }
    }()

    static func setUp() { _ = quiet }
}
