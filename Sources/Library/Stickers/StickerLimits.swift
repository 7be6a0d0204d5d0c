/// The bounds on stickers, each a named constant in one place: a client must not be able to make
/// the library hold unbounded text. mpd has none; these are far above what clients store (a
/// rating, a count, a date) and far below what would slow the library down.
package enum StickerLimits {
    /// Longest sticker name, UTF-8 bytes.
    package static let maxNameBytes = 128
    /// Longest sticker value, UTF-8 bytes.
    package static let maxValueBytes = 4_096
    /// Most stickers on one object; replacing the value of an existing one is always allowed.
    package static let maxPerObject = 64
}
