/// What Tonearm was doing when an error happened, as far as the error's wording is concerned.
///
/// Why: the same code means different things to a listener depending on what failed. A dropped
/// connection during playback is reconnected automatically; the same drop while importing a feed
/// ends that feed's import, and a text that says "during playback ... reconnects automatically"
/// would be false on both counts. Texts are chosen by operation and code together.
public enum ErrorOperation: String, Sendable, Hashable, Codable, CaseIterable {
    /// Playing a station, an episode or a file: the original texts, which speak of playback,
    /// streams and automatic reconnects.
    case playback
    /// Fetching a podcast feed (adding, refreshing, importing an OPML file).
    case feed
    /// Fetching an episode's file to keep it.
    case download
    /// Fetching a station's or episode's artwork.
    case artwork
    /// Fetching an episode's transcript.
    case transcript
}
