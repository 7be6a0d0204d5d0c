import CFFmpeg
import PlayerCore

/// FFmpeg's versions, for `tonearm --version` and bug reports.
package enum FFmpegProbe {
    /// The versions Tonearm was built against, read from the headers: their major versions name
    /// the libraries it loads. Reading them loads nothing, so every command can show them.
    package static var builtWith: String {
        [
            ("libavformat", LIBAVFORMAT_VERSION_MAJOR, LIBAVFORMAT_VERSION_MINOR, LIBAVFORMAT_VERSION_MICRO),
            ("libavcodec", LIBAVCODEC_VERSION_MAJOR, LIBAVCODEC_VERSION_MINOR, LIBAVCODEC_VERSION_MICRO),
            ("libswresample", LIBSWRESAMPLE_VERSION_MAJOR, LIBSWRESAMPLE_VERSION_MINOR, LIBSWRESAMPLE_VERSION_MICRO),
            ("libswscale", LIBSWSCALE_VERSION_MAJOR, LIBSWSCALE_VERSION_MINOR, LIBSWSCALE_VERSION_MICRO),
        ].map { "\($0.0) \($0.1).\($0.2).\($0.3)" }.joined(separator: ", ")
    }

    /// The versions of the libraries this system loads (they load now if they have not), or why
    /// they cannot be loaded.
    package static var loaded: String {
        do throws(PlaybackError) {
            try FFmpegLibraries.load()
        } catch {
            return error.underlying ?? "cannot load FFmpeg's libraries"
        }
        func v(_ n: UInt32) -> String { "\(n >> 16).\((n >> 8) & 0xFF).\(n & 0xFF)" }
        let libraries = [
            ("libavformat", avformat_version()), ("libavcodec", avcodec_version()), ("libswresample", swresample_version()),
            ("libswscale", swscale_version()),
        ]
        return libraries.map { "\($0.0) \(v($0.1))" }.joined(separator: ", ")
    }
}
