import Testing

@testable import PlayerCore

/// `URIScheme.length(in:)` reads bytes where it can and characters where it must; both readings
/// must agree on every text, including those where a combining mark or a CR LF pair makes one
/// character of two scalars.
@Suite struct URISchemeTests {
    @Test(arguments: [
        ("https://example.com/a.mp3", 5), ("HTTP://EXAMPLE.COM", 4), ("icy://radio", 3), ("svn+ssh://x", 7), ("C:\\music", 1),
        ("x-1.y:", 5), ("a:\u{301}b:c", nil), ("1http://x", nil), (":x", nil), ("/path/to/file", nil), ("ép://x", nil),
        ("ht tp://x", nil), ("", nil), ("http", nil), ("h\u{301}ttp://x", nil), ("http:é", 4),
    ] as [(String, Int?)])
    func readsTheScheme(text: String, length: Int?) {
        #expect(URIScheme.length(in: text) == length)
        #expect(URIScheme.lengthByCharacters(in: text) == length)
    }

    @Test func bytesAndCharactersAgreeOnEveryShortText() {
        let pieces = ["h", "T", "1", "+", ".", ":", "/", " ", "\r", "\n", "é", "\u{301}", "\u{200D}", "\u{600}"]
        var texts = [""]
        var disagreements: [String] = []
        for _ in 1...4 {
            texts = texts.flatMap { text in pieces.map { text + $0 } }
            for text in texts where URIScheme.length(in: text) != URIScheme.lengthByCharacters(in: text) {
                disagreements.append(text.unicodeScalars.map { "U+\(String($0.value, radix: 16))" }.joined(separator: " "))
            }
        }
        #expect(texts.count == 14 * 14 * 14 * 14)
        #expect(disagreements.isEmpty)
    }
}
