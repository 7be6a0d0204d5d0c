/// Limits of the media decoders, each a named constant in one place.
package enum MediaLimits {
    /// Largest picture decoded, pixels (width x height): a small PNG can claim a huge size.
    package static let maxImagePixels = 8192 * 8192
}

extension MediaLimits {
    /// Most metadata entries kept from a file (its loudness tags are among the first few).
    package static let maxTags = 128
}

extension MediaLimits {
    /// Longest tag value kept, bytes of UTF-8: a file may claim a title of megabytes; longer values
    /// are cut at a character.
    package static let maxTagValueBytes = 1_024
    /// Most values one tag keeps (repeated Vorbis comments, joined lists).
    package static let maxValuesPerTag = 32
    /// Largest embedded picture handed out, bytes (a cover is a few hundred KB; a file may claim
    /// hundreds of MB).
    package static let maxEmbeddedPictureBytes = 16 << 20
}
