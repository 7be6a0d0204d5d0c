/// An icon by name: an SF Symbols-style name (for any graphical front end)
/// and a one-cell glyph for the terminal.
public struct Icon: Sendable, Hashable, Codable {
    public let symbolName: String
    public let glyph: String

    public init(symbolName: String, glyph: String) {
        self.symbolName = symbolName
        self.glyph = glyph
    }

    /// The error view's large warning icon.
    public static let warning = Icon(symbolName: "exclamationmark.triangle.fill", glyph: "⚠")
    /// The inline error icon.
    public static let inlineError = Icon(symbolName: "exclamationmark.circle.fill", glyph: "!")
    public static let retry = Icon(symbolName: "arrow.clockwise", glyph: "↻")
    public static let dismiss = Icon(symbolName: "xmark", glyph: "×")
    public static let offline = Icon(symbolName: "wifi.slash", glyph: "⊘")
    public static let emptyTray = Icon(symbolName: "tray", glyph: "□")
    public static let radio = Icon(symbolName: "antenna.radiowaves.left.and.right", glyph: "≋")
    public static let podcast = Icon(symbolName: "mic", glyph: "◉")
    public static let episodes = Icon(symbolName: "list.bullet", glyph: "≡")
    public static let session = Icon(symbolName: "music.note.list", glyph: "♫")
    public static let search = Icon(symbolName: "magnifyingglass", glyph: "⌕")
}
