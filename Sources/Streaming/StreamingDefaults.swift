/// Limits of the streaming layer, each a named constant in one place.
public enum StreamingLimits {
    /// Longest ICY metadata value kept (StreamTitle, StreamUrl), in characters after sanitising.
    public static let maxMetadataValueLength = 256
    /// Most redirects an HTTP request follows.
    public static let maxRedirects = 10
    /// Largest playlist body parsed (PLS/M3U), bytes.
    public static let maxPlaylistBytes = 256 * 1024
    /// Most entries taken from one playlist.
    public static let maxPlaylistEntries = 100
}
