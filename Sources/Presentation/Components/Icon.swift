/// An icon by name: an SF Symbols-style name (for any graphical front end)
/// and a one-cell glyph for the terminal.
package struct Icon: Sendable, Hashable, Codable {
    package let symbolName: String
    package let glyph: String

    package init(symbolName: String, glyph: String) {
        self.symbolName = symbolName
        self.glyph = glyph
    }

    /// The error view's large warning icon.
    package static let warning = Icon(symbolName: "exclamationmark.triangle.fill", glyph: "⚠")
    /// The inline error icon.
    package static let inlineError = Icon(symbolName: "exclamationmark.circle.fill", glyph: "!")
    package static let retry = Icon(symbolName: "arrow.clockwise", glyph: "↻")
    package static let dismiss = Icon(symbolName: "xmark", glyph: "×")
    package static let offline = Icon(symbolName: "wifi.slash", glyph: "⊘")
    package static let emptyTray = Icon(symbolName: "tray", glyph: "□")
    package static let radio = Icon(symbolName: "antenna.radiowaves.left.and.right", glyph: "≋")
    package static let podcast = Icon(symbolName: "mic", glyph: "◉")
    package static let episodes = Icon(symbolName: "list.bullet", glyph: "≡")
    package static let session = Icon(symbolName: "music.note.list", glyph: "♫")
    package static let music = Icon(symbolName: "music.note", glyph: "♪")
    package static let search = Icon(symbolName: "magnifyingglass", glyph: "⌕")
}
