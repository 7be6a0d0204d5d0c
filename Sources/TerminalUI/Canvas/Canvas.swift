/// A grid of character cells that screens draw on: the whole frame, before a terminal sees it.
///
/// Why our own grid and not ncurses windows: the layout code stays pure (a function of a view
/// state and a size), so every screen is snapshot-tested as text, and the terminal layer only
/// copies cells.
///
/// Every character is checked as it is put: C0 and C1 controls, DEL and bidi controls never reach
/// a cell (they become U+FFFD), whatever a caller passes, so the terminal is never sent a control
/// byte the renderer did not generate itself. Strings shown here were sanitised where they
/// entered; this is the second line of defence. One grapheme takes one column (wide East Asian
/// characters are not measured).
package struct Canvas: Sendable, Hashable {
    package struct Cell: Sendable, Hashable {
        package var character: Character
        package var style: CellStyle
    }

    package let width: Int
    package let height: Int
    package private(set) var cells: [Cell]

    package init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: Cell(character: " ", style: .plain), count: self.width * self.height)
    }

    package subscript(row: Int, column: Int) -> Cell {
        cells[row * width + column]
    }

    /// Puts `text` at (`row`, `column`), clipped to `maxWidth` columns and the canvas; returns the
    /// columns used. Text longer than `maxWidth` ends with "…".
    @discardableResult
    package mutating func put(_ text: String, row: Int, column: Int, style: CellStyle = .plain, maxWidth: Int? = nil) -> Int {
        guard row >= 0, row < height, column < width else { return 0 }
        let limit = min(maxWidth ?? width, width - max(0, column))
        guard limit > 0 else { return 0 }
        var characters = Array(text)
        if characters.count > limit {
            characters = Array(characters.prefix(limit - 1)) + ["…"]
        }
        var x = column
        for character in characters {
            if x >= 0 { cells[row * width + x] = Cell(character: Self.displayable(character), style: style) }
            x += 1
        }
        return characters.count
    }

    /// Puts `text` centred in the row.
    @discardableResult
    package mutating func putCentered(_ text: String, row: Int, style: CellStyle = .plain, in range: Range<Int>? = nil) -> Int {
        let span = range ?? 0..<width
        let length = min(text.count, span.count)
        return put(text, row: row, column: span.lowerBound + (span.count - length) / 2, style: style, maxWidth: span.count)
    }

    /// Sets the style of `count` cells from (`row`, `column`), keeping their characters.
    package mutating func restyle(row: Int, column: Int, count: Int, style: CellStyle) {
        guard row >= 0, row < height else { return }
        for x in max(0, column)..<min(width, column + count) { cells[row * width + x].style = style }
    }

    /// Sets one cell.
    package mutating func set(row: Int, column: Int, character: Character, style: CellStyle) {
        guard row >= 0, row < height, column >= 0, column < width else { return }
        cells[row * width + column] = Cell(character: Self.displayable(character), style: style)
    }

    /// The rows as text, trailing spaces removed: what a snapshot compares and what a screen
    /// reader would be given.
    package var text: String {
        (0..<height).map { row in
            var line = String(cells[(row * width)..<((row + 1) * width)].map(\.character))
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }

    /// `character`, or U+FFFD when any of its scalars is a control the terminal could act on.
    static func displayable(_ character: Character) -> Character {
        for scalar in character.unicodeScalars where isControl(scalar.value) { return "\u{FFFD}" }
        return character
    }

    static func isControl(_ value: UInt32) -> Bool {
        value < 0x20 || value == 0x7F || (0x80...0x9F).contains(value)
            || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0x200E || value == 0x200F
            || value == 0x061C
    }
}
