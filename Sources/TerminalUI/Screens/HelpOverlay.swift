import PlayerCore
import Presentation

extension Canvas {
    /// The `?` overlay: every action with its keys, in a box over the screen; any key closes it.
    public mutating func drawHelp(_ bindings: KeyBindings, language: Language) {
        let lines = KeyAction.allCases.map { action in
            let keys = (bindings.keys[action] ?? []).map(\.description).joined(separator: " ")
            return "\(keys.padding(toLength: 14, withPad: " ", startingAt: 0)) \(TerminalStrings.actionName(action, in: language))"
        }
        let width = min(48, self.width - 4)
        let height = min(lines.count + 4, self.height - 2)
        let top = max(0, (self.height - height) / 2)
        let left = max(0, (self.width - width) / 2)
        let frame = CellStyle(foreground: .indexed(39), bold: true)
        put("┌" + String(repeating: "─", count: width - 2) + "┐", row: top, column: left, style: frame)
        for y in 1..<(height - 1) { put("│" + String(repeating: " ", count: width - 2) + "│", row: top + y, column: left, style: frame) }
        put("└" + String(repeating: "─", count: width - 2) + "┘", row: top + height - 1, column: left, style: frame)
        putCentered(TerminalStrings.text(.keys, in: language), row: top + 1, style: .bold, in: left..<(left + width))
        for (offset, line) in lines.prefix(height - 4).enumerated() { put(line, row: top + 3 + offset, column: left + 2, maxWidth: width - 4) }
    }
}
