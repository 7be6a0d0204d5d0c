import PlayerCore

/// Why the sticker store refused a request. Bounds are refused, never cut: a value cut short
/// would be a different value.
package enum StickerError: Error, Sendable, Hashable {
    /// A sticker needs a name.
    case emptyName
    /// A name or value holds a line break or NUL, which MPD's line protocol cannot carry back.
    case controlCharacter
    case nameTooLong(limit: Int)
    case valueTooLong(limit: Int)
    /// The object already has the most stickers allowed (`StickerLimits.maxPerObject`).
    case tooManyStickers(limit: Int)
    /// The library database failed.
    case store(PlaybackError)
}
