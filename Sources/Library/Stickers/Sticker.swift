/// One sticker: a name and its value, on one object of a `StickerType`.
package struct Sticker: Sendable, Hashable {
    package var name: String
    package var value: String

    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// One object found by a sticker search: its URI and the value of the sticker searched for.
package struct StickerMatch: Sendable, Hashable {
    package var uri: String
    package var value: String

    package init(uri: String, value: String) {
        self.uri = uri
        self.value = value
    }
}

/// Which values a sticker search keeps. Values compare as text, byte by byte (SQLite's BINARY
/// collation over UTF-8), as mpd's sticker database compares them: `"10" < "5"`.
package enum StickerComparison: Sendable, Hashable {
    /// Any value, as long as the sticker exists.
    case exists
    case equals(String)
    case lessThan(String)
    case greaterThan(String)
}
