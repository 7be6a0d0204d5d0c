/// What the controlscript knows of the player: MPD's `status` and `currentsong` answers, as
/// key/value pairs in the order MPD sent them.
public struct PlayerSnapshot: Sendable, Equatable {
    public var status: [String: String]
    /// The current song's tags; a key MPD repeats (several artists) keeps every value.
    public var song: [String: [String]]

    public init(status: [(String, String)], song: [(String, String)]) {
        var statusFields: [String: String] = [:]
        for (key, value) in status { statusFields[key.lowercased()] = value }
        var songFields: [String: [String]] = [:]
        for (key, value) in song { songFields[key.lowercased(), default: []].append(value) }
        self.status = statusFields
        self.song = songFields
    }

    /// `play`, `pause` or `stop`; a player that says nothing is stopped.
    public var state: String { status["state"] ?? "stop" }

    public var isPlaying: Bool { state == "play" }
}
