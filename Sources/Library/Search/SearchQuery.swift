/// What the listener typed, as an FTS5 query that cannot be misread: every word is quoted (so
/// `AND`, `NEAR`, `*`, `"` and `:` typed by the listener are words, never syntax) and matches as
/// a prefix (`kern` finds "kernel"; `музык` finds "музыка" and "музыки": prefixes stand in for a
/// stemmer, which SQLite has for no language but English). Text in double quotes is a phrase,
/// its words next to each other and whole. Every word must be found.
///
/// Words are split where the index splits them: at every character that is not a letter or a
/// digit in any script (the `unicode61` tokenizer's rule), so a query word is always one index word.
package struct SearchQuery: Sendable, Equatable {
    /// More words than anyone types into a search box; the rest are ignored.
    package static let maxWords = 16
    /// Longer words are cut (no word in any language is this long; a pasted blob is).
    package static let maxWordLength = 64

    /// The FTS5 expression (for `MATCH`).
    package let expression: String
    /// The same words matched whole, not as prefixes. FTS5 reads a whole word's entries lazily,
    /// in order, but merges every word a prefix stands for into one list first, so a prefix of a
    /// word said in 400,000 lines costs tens of milliseconds where the whole word costs a few.
    package let exactExpression: String

    /// Nil when the text has no word at all (punctuation only, or empty).
    package init?(_ text: String) {
        var terms: [String] = []
        var exact: [String] = []
        var words = 0
        for (index, piece) in text.split(separator: "\"", omittingEmptySubsequences: false).enumerated() {
            guard words < Self.maxWords else { break }
            let pieceWords = Array(Self.words(in: piece).prefix(Self.maxWords - words))
            guard !pieceWords.isEmpty else { continue }
            words += pieceWords.count
            // Odd pieces were between quotes (an unclosed quote runs to the end of the text).
            if index % 2 == 1 {
                terms.append("\"" + pieceWords.joined(separator: " ") + "\"")
                exact.append(terms[terms.count - 1])
            } else {
                terms += pieceWords.map { "\"\($0)\"*" }
                exact += pieceWords.map { "\"\($0)\"" }
            }
        }
        guard !terms.isEmpty else { return nil }
        expression = terms.joined(separator: " ")
        exactExpression = exact.joined(separator: " ")
    }

    /// The query limited to the named columns (`{title} : (...)`), its words as prefixes or whole.
    package func only(_ columns: String..., whole: Bool = false) -> String {
        "{\(columns.joined(separator: " "))} : (\(whole ? exactExpression : expression))"
    }

    private static func words(in text: Substring) -> [String] {
        text.split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map { String($0.prefix(maxWordLength)) }
    }
}
