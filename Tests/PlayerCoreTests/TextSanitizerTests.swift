import Testing

@testable import PlayerCore

@Suite struct TextSanitizerTests {
    /// Clean printable ASCII is returned as it is; anything else takes the full cleaning.
    @Test(arguments: [
        ("Episode 12: a title", 256, "Episode 12: a title"), ("", 256, ""), (" lead", 256, "lead"), ("trail ", 256, "trail"),
        ("two  spaces", 256, "two spaces"), ("tab\there", 256, "tab here"), ("v\u{B}t", 256, "v t"), ("abcdef", 6, "abcdef"),
        ("abcdefg", 6, "abcde…"), ("abcdefg", 0, "abcdefg"), ("unit\u{1F}sep", 256, "unitsep"), ("del\u{7F}", 256, "del"),
        ("café", 4, "café"), ("café au lait", 4, "caf…"),
    ])
    func cleanASCIIIsKeptAndTheRestCleaned(text: String, maxLength: Int, expected: String) {
        #expect(TextSanitizer.singleLine(text, maxLength: maxLength) == expected)
    }

    @Test func removesC0AndDEL() {
        #expect(TextSanitizer.singleLine("a\u{0}b\u{7}c\u{1B}d\u{7F}e") == "abcde")
    }

    @Test func ansiEscapeLosesItsESC() {
        let cleaned = TextSanitizer.singleLine("\u{1B}[31mred\u{1B}[0m")
        #expect(!cleaned.unicodeScalars.contains("\u{1B}"))
        #expect(cleaned == "[31mred[0m")
    }

    @Test func removesC1() {
        #expect(TextSanitizer.singleLine("a\u{9B}31mb\u{80}c\u{9F}") == "a31mbc")
        // NEL (U+0085) is a line break: it goes, leaving the single space a newline would.
        let nel = TextSanitizer.singleLine("a\u{85}b")
        #expect(!nel.unicodeScalars.contains("\u{85}"))
        #expect(nel == "a b")
    }

    @Test(arguments: ["\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}",
                      "\u{2069}", "\u{200E}", "\u{200F}", "\u{061C}"])
    func removesBidiControls(control: String) {
        #expect(TextSanitizer.singleLine("evil\(control)3pm.exe") == "evil3pm.exe")
        #expect(TextSanitizer.isForbidden(control.unicodeScalars.first!))
    }

    @Test func flattensWhitespaceRuns() {
        #expect(TextSanitizer.singleLine("one\ntwo") == "one two")
        #expect(TextSanitizer.singleLine("one\r\n\r\ntwo\t\tthree") == "one two three")
        #expect(TextSanitizer.singleLine("one \n\t two") == "one two")
        #expect(TextSanitizer.singleLine("one\u{2028}two\u{00A0}three") == "one two three")
        // Removed controls do not glue words or double spaces.
        #expect(TextSanitizer.singleLine("one \u{0} two") == "one two")
    }

    @Test func trims() {
        #expect(TextSanitizer.singleLine("  \n\t padded \t\n ") == "padded")
        #expect(TextSanitizer.singleLine(" \u{1B} ") == "")
        #expect(TextSanitizer.singleLine("") == "")
    }

    @Test func capsLengthWithEllipsis() {
        #expect(TextSanitizer.singleLine("abcdefgh", maxLength: 5) == "abcd…")
        #expect(TextSanitizer.singleLine("abcde", maxLength: 5) == "abcde")
        let long = TextSanitizer.singleLine(String(repeating: "x", count: 1000))
        #expect(long.count == TextSanitizer.defaultMaxLength)
        #expect(long.hasSuffix("…"))
        // Counted in characters: an emoji with a skin tone is one.
        #expect(TextSanitizer.singleLine(String(repeating: "👋🏽", count: 10), maxLength: 4) == "👋🏽👋🏽👋🏽…")
        #expect(TextSanitizer.singleLine("Привет, мир", maxLength: 7) == "Привет…")
    }

    @Test(arguments: ["Кино — Группа крови", "東京事変 - 群青日和", "Café del Mar 🎧", "👨‍👩‍👧 family", "Ωmega ß ü"])
    func keepsNormalUnicode(text: String) {
        #expect(TextSanitizer.singleLine(text) == text)
    }

    @Test func optionalSingleLine() {
        #expect(TextSanitizer.optionalSingleLine(nil) == nil)
        #expect(TextSanitizer.optionalSingleLine(" \n\u{0}\u{202E} ") == nil)
        #expect(TextSanitizer.optionalSingleLine(" Station\n") == "Station")
    }

    @Test func forbiddenSet() {
        for value: UInt32 in [0x00, 0x09, 0x0A, 0x1B, 0x1F, 0x7F, 0x80, 0x85, 0x9B, 0x9F] {
            #expect(TextSanitizer.isForbidden(Unicode.Scalar(value)!), "\(value)")
        }
        for scalar: Unicode.Scalar in ["a", " ", "Я", "€", "\u{200D}", "\u{A0}"] {
            #expect(!TextSanitizer.isForbidden(scalar), "\(scalar)")
        }
    }
}
