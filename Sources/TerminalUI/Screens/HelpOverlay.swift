import PlayerCore
import Presentation

extension Canvas {
    /// The `?` overlay: every action with its keys, in a box over the screen; any key closes it.
    /// When the actions do not fit one column on this screen they are laid out in two or more,
    /// so none is cut off on a small terminal.
    public mutating func drawHelp(_ bindings: KeyBindings, language: Language) {
        let lines = KeyAction.allCases.map { action in
            let keys = (bindings.keys[action] ?? []).map(\.description).joined(separator: " ")
            return "\(keys.padding(toLength: 8, withPad: " ", startingAt: 0)) \(TerminalStrings.actionName(action, in: language))"
        }
        let rows = max(1, min(lines.count, self.height - 6))
        let columns = (lines.count + rows - 1) / rows
        let columnWidth = 44
        let width = min(columns * columnWidth + 4, self.width - 2)
        let height = rows + 4
        let top = max(0, (self.height - height) / 2)
        let left = max(0, (self.width - width) / 2)
        let frame = CellStyle(foreground: .indexed(39), bold: true)
        put("┌" + String(repeating: "─", count: width - 2) + "┐", row: top, column: left, style: frame)
        for y in 1..<(height - 1) { put("│" + String(repeating: " ", count: width - 2) + "│", row: top + y, column: left, style: frame) }
        put("└" + String(repeating: "─", count: width - 2) + "┘", row: top + height - 1, column: left, style: frame)
        putCentered(TerminalStrings.text(.keys, in: language), row: top + 1, style: .bold, in: left..<(left + width))
        let shown = (width - 4) / columns
        for (index, line) in lines.enumerated() {
            let (column, row) = (index / rows, index % rows)
            put(line, row: top + 3 + row, column: left + 2 + column * shown, maxWidth: max(1, shown - 1))
        }
    }
}
