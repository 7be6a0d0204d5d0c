import CFFmpeg
import PlayerCore

/// FFmpeg's negative `AVERROR` codes, named and described for logs. Mapping to `PlaybackError`
/// happens at each call site, because the same code means different things there (an
/// `AVERROR_INVALIDDATA` while opening is "not audio", while decoding it is one corrupt packet).
enum FFmpegError {
    static let again = tonearm_averror_eagain()
    static let endOfFile = tonearm_averror_eof()
    static let invalidData = tonearm_averror_invaliddata()
    static let exit = tonearm_averror_exit()
    static let outOfMemory = tonearm_averror_enomem()
    static let streamNotFound = tonearm_averror_stream_not_found()
    static let decoderNotFound = tonearm_averror_decoder_not_found()
    /// AVERROR(ENOSYS): the operation is not supported (a seek on a source that cannot).
    static let unsupported = tonearm_averror(ENOSYS)
    static let invalidArgument = tonearm_averror(EINVAL)

    /// FFmpeg's own text for `code`, such as "Invalid data found when processing input".
    static func message(_ code: Int32) -> String {
        var text = [CChar](repeating: 0, count: 128)
        text.withUnsafeMutableBufferPointer { tonearm_av_strerror(code, $0.baseAddress, $0.count) }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `AVERROR(e)` is `-e` on Linux: the errno behind `code`, when it is one.
    static func posixErrno(_ code: Int32) -> Int32? {
        code < 0 && code > -4096 ? -code : nil
    }

    /// A log line: what failed, FFmpeg's text and the code (never a path or URL).
    static func describe(_ what: String, _ code: Int32) -> String {
        "\(what): \(message(code)) (\(code))"
    }
}
