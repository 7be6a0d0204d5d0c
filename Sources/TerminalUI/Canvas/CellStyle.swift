/// How one cell is drawn.
public struct CellStyle: Sendable, Hashable {
    public var foreground: TerminalColor
    public var background: TerminalColor
    public var bold: Bool
    /// Shown faint: controls the current state does not allow.
    public var dim: Bool
    public var reverse: Bool

    public init(
        foreground: TerminalColor = .standard, background: TerminalColor = .standard, bold: Bool = false, dim: Bool = false,
        reverse: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
    }

    public static let plain = CellStyle()
    public static let bold = CellStyle(bold: true)
    public static let dim = CellStyle(dim: true)
    public static let reverse = CellStyle(reverse: true)
}
