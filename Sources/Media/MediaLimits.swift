/// Limits of the media decoders, each a named constant in one place.
public enum MediaLimits {
    /// Largest picture decoded, pixels (width x height): a small PNG can claim a huge size.
    public static let maxImagePixels = 8192 * 8192
}

extension MediaLimits {
    /// Most metadata entries kept from a file (its loudness tags are among the first few).
    public static let maxTags = 128
}
