/// What `PlaybackSession.open` did when no sound server answered and nothing was asked for: the
/// session renders to a WAV file as fast as possible instead. A value, so each front end says it
/// in the listener's language (Presentation's `UIString.outputFellBack`); `description` is the
/// English for logs and for apps that show no other language.
public struct OutputFallback: Sendable, Equatable, CustomStringConvertible {
    /// The WAV file the session renders to.
    public let file: String

    public init(file: String) {
        self.file = file
    }

    public var description: String { "No sound server answered; rendering to \(file) instead." }
}
