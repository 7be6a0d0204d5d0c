import Media

/// Starts loading FFmpeg before the command line is parsed, for a command that decodes at once.
///
/// A playback's first sample waits for FFmpeg's libraries, about 55 ms of the dynamic linker on a
/// 2-core machine, and parsing a `play` command line takes about 10 ms of reflection before the
/// command runs. Started first, the load runs beside the parse and the opening of the library and
/// the output instead of after them.
package enum EarlyDecoderLoad {
    /// True for `tonearm play` of local files or a session, read from the words before they are
    /// parsed: a wrong guess costs only the order of the two.
    ///
    /// Not for help, which decodes nothing (and the program's exit waits for a load under way),
    /// and not for a stream, an episode or a station: a stream's connection starts threads of its
    /// own, which would wait for the load, and its first bytes take longer than the load, which
    /// then happens while they come (started first, it delayed first audio from a loopback
    /// Icecast by 40 ms).
    package static func wanted(for arguments: [String]) -> Bool {
        let words = arguments.dropFirst()
        guard words.first == "play" else { return false }
        return !words.contains { word in
            let option = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
            return ["-h", "--help", "help", "--episode", "--station"].contains(option) || word.contains("://")
        }
    }

    /// Starts the load on a thread of its own when `arguments` want it, and returns at once.
    ///
    /// Runs on the cooperative pool, so the pool thread that goes on to parse exists before the
    /// load begins: while the dynamic linker maps libraries, glibc starts no thread
    /// (`pthread_create` waits for its TLS lock), and a pool thread created then would wait for
    /// the whole load. Measured from the main thread, the parse started 60 ms late.
    @concurrent
    package static func start(for arguments: [String]) async {
        if wanted(for: arguments) { FFmpegLibraries.startLoading() }
    }
}
