import AudioEngine
import PlayerCore

/// Where sound goes: a sound server, a WAV file, or nowhere.
public enum OutputChoice: Sendable, Equatable {
    case pulse
    case wav(path: String, float: Bool)
    case null
    /// A Snapcast server's stream source (`tcp://` in server mode, or a `pipe://` FIFO).
    case snapcast(SnapcastEndpoint)
    /// A named pipe for visualisers: raw 16-bit 48 kHz stereo, paced in real time.
    case fifo(path: String)

    /// `pulse`, `null`, `wav:PATH` (16-bit), `wav-float:PATH` (32-bit float),
    /// `snapcast:tcp://HOST:PORT`, `snapcast:pipe:PATH` or `fifo:PATH`.
    public init?(argument: String) {
        if argument == "pulse" { self = .pulse; return }
        if argument == "null" { self = .null; return }
        if argument.hasPrefix("snapcast:") {
            guard let endpoint = SnapcastEndpoint(address: String(argument.dropFirst("snapcast:".count))) else { return nil }
            self = .snapcast(endpoint)
            return
        }
        if argument.hasPrefix("fifo:") {
            let path = String(argument.dropFirst("fifo:".count))
            guard !path.isEmpty else { return nil }
            self = .fifo(path: path)
            return
        }
        for (prefix, float) in [("wav:", false), ("wav-float:", true)] where argument.hasPrefix(prefix) {
            let path = String(argument.dropFirst(prefix.count))
            guard !path.isEmpty else { return nil }
            self = .wav(path: path, float: float)
            return
        }
        return nil
    }

    public var description: String {
        switch self {
        case .pulse: "PulseAudio"
        case .wav(let path, _): "WAV file \(path)"
        case .null: "null output"
        case .snapcast(let endpoint): "Snapcast source \(endpoint)"
        case .fifo(let path): "FIFO \(path)"
        }
    }

    /// Files can be written as fast as possible; a sound server cannot, nor a visualiser's pipe.
    public var canRenderFast: Bool {
        switch self {
        case .pulse, .snapcast, .fifo: false
        case .wav, .null: true
        }
    }

    public func makeSink(realtime: Bool) -> any AudioSink {
        switch self {
        case .pulse: PulseAudioSink()
        case .wav(let path, let float): WAVFileSink(path: path, encoding: float ? .float32 : .pcm16)
        case .null: NullSink(realtime: realtime)
        case .snapcast(let endpoint): SnapcastSink(endpoint: endpoint)
        case .fifo(let path): FifoSink(path: path, realtime: realtime)
        }
    }

    /// The main output's sink with `beside`'s next to it (`--also-output`), written best-effort
    /// and never pacing; without `beside`, the main one alone. Each can be turned off and on
    /// while the player plays by its switch (the main one first); with the main one off, a null
    /// sink keeps its pace.
    public func makeSink(realtime: Bool, beside: OutputChoice?) -> (sink: any AudioSink, switches: [OutputSwitch]) {
        let mainSwitch = OutputSwitch(name: description)
        let main = makeSink(realtime: realtime)
        let switched = SwitchedSink(main, switch: mainSwitch, standIn: NullSink(realtime: main.isRealtime))
        guard let beside else { return (switched, [mainSwitch]) }
        let besideSwitch = OutputSwitch(name: beside.description)
        let second = SwitchedSink(beside.makeSink(realtime: false), switch: besideSwitch, standIn: nil)
        return (TeeSink(main: switched, beside: second), [mainSwitch, besideSwitch])
    }

    /// The output when the listener named none: PulseAudio when a server answers, otherwise the
    /// fallback file (rendered as fast as possible), otherwise `audioOutputUnavailable`.
    /// Asking the server blocks for up to 1.5 s, so it is asked on a thread of its own.
    /// - Returns: the choice, and whether it is the fallback file.
    public static func automatic(fallbackWAV: String? = nil) async throws(PlaybackError) -> (choice: OutputChoice, isFallback: Bool) {
        if await BlockingCall.onOwnThread({ PulseAudioSink.serverAnswers(server: nil, timeout: 1.5) }) { return (.pulse, false) }
        guard let fallbackWAV else { throw PlaybackError(.audioOutputUnavailable) }
        return (.wav(path: fallbackWAV, float: false), true)
    }
}
