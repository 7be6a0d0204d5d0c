/// How one cell is drawn.
package struct CellStyle: Sendable, Hashable {
    package var foreground: TerminalColor
    package var background: TerminalColor
    package var bold: Bool
    /// Shown faint: controls the current state does not allow.
    package var dim: Bool
    package var reverse: Bool

    package init(
        foreground: TerminalColor = .standard, background: TerminalColor = .standard, bold: Bool = false, dim: Bool = false,
        reverse: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
    }

    package static let plain = CellStyle()
    package static let bold = CellStyle(bold: true)
    package static let dim = CellStyle(dim: true)
    package static let reverse = CellStyle(reverse: true)
}
