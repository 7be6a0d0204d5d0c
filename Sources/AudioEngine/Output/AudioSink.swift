import PlayerCore

/// Where mixed audio goes (MPD's output-plugin idea): PulseAudio, a WAV file, or nowhere. A sink is
/// driven by the render thread only; implementations are `Sendable` so they can be handed to it.
public protocol AudioSink: AnyObject, Sendable {
    /// For messages: "PulseAudio", "WAV file", "null".
    var kind: String { get }
    /// True when `write` paces itself in real time (a sound server, the real-time null sink).
    var isRealtime: Bool { get }
    /// Opens the output. No server -> `audioOutputUnavailable`.
    func open() throws(PlaybackError)
    /// Writes `frames` interleaved stereo Float32 frames, blocking like a device. The output went
    /// away -> `audioOutputLost`.
    func write(_ samples: UnsafePointer<Float>, frames: Int) throws(PlaybackError)
    /// Blocks until everything written has been heard.
    func drain() throws(PlaybackError)
    /// Closes the output; `open` may be called again afterwards.
    func close()
    /// A route change since the last call (the device was removed while the server stays), if any.
    func takeRouteChange() -> RouteChange?
}

/// A change of where sound goes that the listener should know about.
public enum RouteChange: Sendable, Equatable {
    /// The device playback was on disappeared (headphones unplugged): playback pauses.
    case deviceRemoved(name: String)
}
