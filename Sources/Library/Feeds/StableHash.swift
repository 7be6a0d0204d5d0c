/// A hash that is the same in every run and on every machine, for identifiers derived from feed
/// text (an item without a guid or enclosure; a guid too long to keep).
///
/// FNV-1a, 64 bits, over UTF-8. Not cryptographic and not meant to be: the input is public feed
/// text and the only need is that one podcast's episodes get distinct, stable ids, so the store
/// can match a refreshed item to the one it knows. Swift's `Hasher` is seeded per process and
/// would change every run; SHA-256 (Digests) would be a dependency for nothing here.
enum StableHash {
    /// `tonearm-fnv1a64:` and 16 lowercase hex digits; the prefix keeps it apart from real guids.
    static func identifier(for text: String) -> String {
        "tonearm-fnv1a64:" + hex(text)
    }

    /// The hash as 16 lowercase hex digits.
    static func hex(_ text: String) -> String {
        let hex = String(fnv1a64(text), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    static func fnv1a64(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
