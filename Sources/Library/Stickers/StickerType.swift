/// What a sticker is attached to: MPD's sticker "domain". mpd 0.23 knows only songs; the store
/// keeps the type so another domain needs no new table.
package enum StickerType: String, Sendable, Hashable, CaseIterable {
    case song
}
