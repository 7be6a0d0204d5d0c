import PlayerCore
import Presentation

extension Canvas {
    /// The `?` overlay: every action with its keys, in a box over the screen; any key closes it.
    /// When the actions do not fit one column under each other, they are laid out in two or more,
    /// so none is cut off on an ordinary terminal.
    package mutating func drawHelp(_ bindings: KeyBindings, language: Language) {
        let entries = KeyAction.allCases.map { action in
            ((bindings.keys[action] ?? []).map(\.description).joined(separator: " "), TerminalStrings.actionName(action, in: language))
        }
        // The box may take the whole screen: its frame and heading take three lines, the rest is
        // for the actions (21 on a 24-line terminal).
        let rowsAvailable = max(1, self.height - 3)
        // As many columns as the actions need, as far as the screen has room for (30 cells each).
        let columns = max(1, min((entries.count + rowsAvailable - 1) / rowsAvailable, self.width / 30))
        let keyWidth = columns == 1 ? 14 : (entries.map(\.0.count).max() ?? 0) + 1
        let lines = entries.map { keys, name in "\(keys.padding(toLength: keyWidth, withPad: " ", startingAt: 0)) \(name)" }
        let perColumn = (lines.count + columns - 1) / columns
        let width = columns == 1 ? min(48, self.width - 4) : min(100, self.width - 4)
        let height = min(perColumn + 3, self.height)
        let top = max(0, (self.height - height) / 2)
        let left = max(0, (self.width - width) / 2)
        let frame = CellStyle(foreground: .indexed(39), bold: true)
        put("┌" + String(repeating: "─", count: width - 2) + "┐", row: top, column: left, style: frame)
        for y in 1..<(height - 1) { put("│" + String(repeating: " ", count: width - 2) + "│", row: top + y, column: left, style: frame) }
        put("└" + String(repeating: "─", count: width - 2) + "┘", row: top + height - 1, column: left, style: frame)
        putCentered(TerminalStrings.text(.keys, in: language), row: top + 1, style: .bold, in: left..<(left + width))
        let columnWidth = (width - 4 - (columns - 1) * 2) / columns
        for (index, line) in lines.enumerated() where index % perColumn < height - 3 {
            let column = index / perColumn
            put(line, row: top + 2 + index % perColumn, column: left + 2 + column * (columnWidth + 2), maxWidth: columnWidth)
        }
    }
}
