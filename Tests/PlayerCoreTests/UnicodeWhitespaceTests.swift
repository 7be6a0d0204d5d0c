import Foundation
import Testing

@testable import PlayerCore

/// `UnicodeWhitespace` replaces Foundation's character sets in hot paths, so it must agree with
/// them on every scalar, and trimming must give what `trimmingCharacters(in:)` gives.
@Suite struct UnicodeWhitespaceTests {
    @Test func agreesWithFoundationsSetsOnEveryScalar() {
        var disagreements: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if UnicodeWhitespace.isWhitespaceOrNewline(scalar) != CharacterSet.whitespacesAndNewlines.contains(scalar) {
                disagreements.append("whitespacesAndNewlines U+\(String(value, radix: 16))")
            }
            if UnicodeWhitespace.isHorizontalWhitespace(scalar) != CharacterSet.whitespaces.contains(scalar) {
                disagreements.append("whitespaces U+\(String(value, radix: 16))")
            }
        }
        #expect(disagreements.isEmpty)
    }

    @Test(arguments: [
        "", " ", "\n\t ", "plain", "  both ends \r\n", "\u{A0}\u{2003}inner  space\u{3000}", "\u{200B}zero width\u{200B}",
        "\u{85}next line\u{2028}", "\u{1680}ogham", "é\u{301} combining", "\u{FEFF}bom is not space", "\t\u{B}\u{C}tabs\u{B}",
    ])
    func trimsAsFoundationDoes(text: String) {
        #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(text.trimmingWhitespace(newlines: false) == text.trimmingCharacters(in: .whitespaces))
        let slice = ("x" + text + "y").dropFirst().dropLast()
        #expect(slice.trimmingWhitespace() == slice.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
