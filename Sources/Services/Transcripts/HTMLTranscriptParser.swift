import Foundation
import PlayerCore

/// An HTML transcript, as text: its paragraphs, without times (it can be read and searched, not
/// followed). Block elements (`p`, `div`, `br`, `li`, headings, `tr`) end a paragraph; `script`
/// and `style` say nothing; every other tag is removed and character references decoded.
///
/// Written by hand: no HTML parser is among the packages this project builds with, and reading
/// paragraphs needs only the tags' names.
enum HTMLTranscriptParser {
    static func parse(_ html: String) -> [TranscriptCue] {
        var paragraphs: [String] = []
        var current = ""
        var index = html.startIndex
        func endParagraph() {
            let text = CueText.decodeReferences(current).split(whereSeparator: \.isWhitespace).joined(separator: " ")
            if !text.isEmpty { paragraphs.append(text) }
            current = ""
        }
        while index < html.endIndex, paragraphs.count < Transcript.maxCues {
            let character = html[index]
            guard character == "<", let close = html[index...].firstIndex(of: ">") else {
                current.append(character)
                index = html.index(after: index)
                continue
            }
            let name = tagName(html[html.index(after: index)..<close])
            index = html.index(after: close)
            if name == "script" || name == "style" {
                // Skip to the element's end tag (or the document's end).
                if let end = html[index...].range(of: "</\(name)", options: .caseInsensitive) {
                    index = html[end.upperBound...].firstIndex(of: ">").map { html.index(after: $0) } ?? html.endIndex
                } else {
                    index = html.endIndex
                }
            } else if Self.blocks.contains(name) {
                endParagraph()
            } else {
                current.append(" ")
            }
        }
        endParagraph()
        return paragraphs.compactMap { TranscriptCue(start: 0, end: 0, text: $0) }
    }

    private static let blocks: Set<String> = [
        "p", "div", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "table", "section", "article", "blockquote",
        "dt", "dd", "body", "head", "title",
    ]

    /// `p` for `<p class="x">`, `</P>` and `<br/>`.
    private static func tagName(_ inside: Substring) -> String {
        let trimmed = inside.drop { $0 == "/" || $0.isWhitespace }
        return String(trimmed.prefix { $0.isLetter || $0.isNumber }).lowercased()
    }
}
