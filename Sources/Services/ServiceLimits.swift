/// Limits and schedules of the services (metadata, artwork, connectivity), each a named constant in
/// one place.
public enum ServiceLimits {
    /// Largest artwork image fetched, bytes.
    public static let maxArtworkBytes = 5 * 1024 * 1024
    /// Largest status document (Icecast `/status-json.xsl`, a station's status API), bytes.
    package static let maxStatusBytes = 512 * 1024
    /// Artwork images kept in memory.
    public static let artworkMemoryEntries = 64
}

extension ServiceLimits {
    /// Longest URL taken from a status document (artwork), characters; a longer one is dropped, not cut.
    package static let maxStatusURLLength = 2048
}

extension ServiceLimits {
    /// Largest station directory answer, bytes (500 stations are about 600 kB).
    package static let maxDirectoryBytes = 4 * 1024 * 1024
    /// Directory searches kept in memory.
    package static let directoryMemoryEntries = 32
}

extension ServiceLimits {
    /// Largest Podcasting 2.0 JSON chapters document, bytes (a few hundred chapters with links are
    /// under 100 kB).
    public static let maxChaptersBytes = 1024 * 1024
}

extension ServiceLimits {
    /// Largest transcript document, bytes (a three-hour episode's WebVTT is about 300 kB; a
    /// word-by-word JSON transcript of it a few MB).
    public static let maxTranscriptBytes = 8 * 1024 * 1024
}
