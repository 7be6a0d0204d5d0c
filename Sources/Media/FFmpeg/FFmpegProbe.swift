import CFFmpeg

/// The FFmpeg library versions linked in, for `tonearm --version` and bug reports.
package enum FFmpegProbe {
    package static var versions: String {
        func v(_ n: UInt32) -> String { "\(n >> 16).\((n >> 8) & 0xFF).\(n & 0xFF)" }
        let libraries = [
            ("libavformat", avformat_version()), ("libavcodec", avcodec_version()), ("libswresample", swresample_version()),
            ("libswscale", swscale_version()),
        ]
        return libraries.map { "\($0.0) \(v($0.1))" }.joined(separator: ", ")
    }
}
