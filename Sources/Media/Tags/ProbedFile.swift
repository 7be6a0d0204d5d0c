import CFFmpeg
import Foundation
import PlayerCore

/// A local file opened only as far as reading about it: its container's headers, its tags and its
/// attached pictures, never its audio decoded for playback. Tag reading and cover art open files
/// this way, thousands of them when a library is indexed, so opening is bounded: at most
/// `probeBytes` read to find the streams and `analyzeMicroseconds` of packets looked at.
final class ProbedFile {
    /// Bytes FFmpeg may read past the headers to find the streams' parameters.
    static let probeBytes: Int64 = 1 << 20
    /// Packets looked at to find the parameters a header does not state (an mp3's sample rate).
    static let analyzeMicroseconds = Int64(AV_TIME_BASE) / 2

    private let handles = FFmpegHandles()
    let format: UnsafeMutablePointer<AVFormatContext>

    /// Takes `format` over: it is closed when this file is released.
    private init(format: UnsafeMutablePointer<AVFormatContext>) {
        self.format = format
        handles.format = format
    }

    /// Opens `url`. With `analysingStreams` the audio stream's parameters are found
    /// (`avformat_find_stream_info`, which may look at the first packets of a stream whose header
    /// does not state them; streams other than audio are discarded first, so a picture is never
    /// decoded);
    /// without, only the headers are read (enough for attached pictures). Errors: the kernel's
    /// (stat(2), open(2)) first, as `.fileNotFound` or `.permissionDenied`; an empty file or one
    /// that is no known container is `.unsupportedFormat`.
    static func open(_ url: URL, analysingStreams: Bool) throws(PlaybackError) -> ProbedFile {
        try FFmpegLibraries.load()
        guard url.isFileURL else { throw PlaybackError(.unsupportedFormat, underlying: "tags are read from local files only") }
        let path = url.withUnsafeFileSystemRepresentation { $0.map { String(cString: $0) } } ?? ""
        var info = stat()
        if stat(path, &info) != 0 {
            let code = errno
            throw PlaybackError.from(errno: code, underlying: "stat: \(String(cString: strerror(code)))")
        }
        if info.st_mode & S_IFMT == S_IFDIR { throw PlaybackError(.fileNotFound, underlying: "the path is a directory") }
        let descriptor = Glibc.open(path, O_RDONLY)
        if descriptor < 0 {
            let code = errno
            throw PlaybackError.from(errno: code, underlying: "open: \(String(cString: strerror(code)))")
        }
        close(descriptor)
        guard info.st_size > 0 else { throw PlaybackError(.unsupportedFormat, underlying: "the file is empty") }

        var context = avformat_alloc_context()
        guard let allocated = context else { throw PlaybackError(.unknown, underlying: "FFmpeg could not allocate a format context") }
        allocated.pointee.probesize = probeBytes
        allocated.pointee.max_analyze_duration = analyzeMicroseconds
        // "file:" keeps a path with a colon from being read as another protocol. On failure FFmpeg
        // frees the context and sets it to nil.
        let status = avformat_open_input(&context, "file:" + path, nil, nil)
        guard status >= 0, let format = context else {
            if let code = FFmpegError.posixErrno(status), [ENOENT, EACCES, EPERM, EISDIR].contains(code) {
                throw PlaybackError.from(errno: code, underlying: FFmpegError.describe("open", status))
            }
            throw PlaybackError(.unsupportedFormat, underlying: FFmpegError.describe("open", status))
        }
        let opened = ProbedFile(format: format)
        if analysingStreams {
            for index in 0..<Int(format.pointee.nb_streams) {
                guard let stream = format.pointee.streams[index], stream.pointee.codecpar.pointee.codec_type != AVMEDIA_TYPE_AUDIO
                else { continue }
                stream.pointee.discard = AVDISCARD_ALL
            }
            _ = avformat_find_stream_info(format, nil)  // a failure shows as missing parameters
        }
        return opened
    }

    /// The demuxer's short name ("mp3", "ogg", "flac", "mov,mp4,m4a,3gp,3g2,mj2").
    var containerName: String {
        format.pointee.iformat?.pointee.name.map { String(cString: $0) } ?? ""
    }

    /// The index of the best audio stream, or nil when the file has none.
    var audioStreamIndex: Int? {
        let index = av_find_best_stream(format, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        return index >= 0 ? Int(index) : nil
    }

    func stream(_ index: Int) -> UnsafeMutablePointer<AVStream>? {
        guard index >= 0, index < Int(format.pointee.nb_streams) else { return nil }
        return format.pointee.streams[index]
    }
}
