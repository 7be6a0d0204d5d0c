/// A key as bindings name it: a printable character, or one of the named keys.
package enum Key: Sendable, Hashable, CustomStringConvertible {
    case character(Character)
    case up, down, left, right, enter, escape, backspace, tab

    /// Parses a binding's key name: a single character ("q", "?", " " or "space"), or "up",
    /// "down", "left", "right", "enter", "escape"/"esc", "backspace", "tab".
    package init?(name: String) {
        switch name.lowercased() {
        case "up": self = .up
        case "down": self = .down
        case "left": self = .left
        case "right": self = .right
        case "enter", "return": self = .enter
        case "escape", "esc": self = .escape
        case "backspace": self = .backspace
        case "tab": self = .tab
        case "space": self = .character(" ")
        default:
            guard name.count == 1, let character = name.first,
                character.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) })
            else { return nil }
            self = .character(character)
        }
    }

    /// How a key-hint bar names it.
    package var description: String {
        switch self {
        case .character(" "): "space"
        case .character(let c): String(c)
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .enter: "Enter"
        case .escape: "Esc"
        case .backspace: "⌫"
        case .tab: "Tab"
        }
    }
}
