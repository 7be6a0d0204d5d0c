import CFFmpeg

/// The FFmpeg library versions linked in, for `tonearm --version` and bug reports.
public enum FFmpegProbe {
    public static var versions: String {
        func v(_ n: UInt32) -> String { "\(n >> 16).\((n >> 8) & 0xFF).\(n & 0xFF)" }
        return "libavformat \(v(avformat_version())), libavcodec \(v(avcodec_version())), libswresample \(v(swresample_version()))"
    }
}
