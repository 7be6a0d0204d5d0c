/// Limits of the streaming layer, each a named constant in one place.
package enum StreamingLimits {
    /// Longest ICY metadata value kept (StreamTitle, StreamUrl), in characters after sanitising.
    package static let maxMetadataValueLength = 256
    /// Most redirects an HTTP request follows.
    package static let maxRedirects = 10
    /// Largest playlist body parsed (PLS/M3U), bytes.
    package static let maxPlaylistBytes = 256 * 1024
    /// Most entries taken from one playlist.
    package static let maxPlaylistEntries = 100
}
