/// Limits of the media decoders, each a named constant in one place.
package enum MediaLimits {
    /// Largest picture decoded, pixels (width x height): a small PNG can claim a huge size.
    package static let maxImagePixels = 8192 * 8192
}

extension MediaLimits {
    /// Most metadata entries kept from a file (its loudness tags are among the first few).
    package static let maxTags = 128
}
