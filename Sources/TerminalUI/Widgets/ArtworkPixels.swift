import PlayerCore

/// A decoded picture scaled for the terminal: `width` x `height` RGB pixels, row by row. Two
/// pixel rows make one character row (the upper half block takes the top pixel as its foreground
/// and the bottom one as its background).
package struct ArtworkPixels: Sendable, Hashable {
    package let width: Int
    package let height: Int
    /// `width * height * 3` bytes.
    package let rgb: [UInt8]

    package init?(width: Int, height: Int, rgb: [UInt8]) {
        guard width > 0, height > 0, rgb.count == width * height * 3 else { return nil }
        self.width = width
        self.height = height
        self.rgb = rgb
    }

    /// The picture the artwork service found, as the terminal draws it.
    package init?(_ picture: ArtworkPicture) {
        self.init(width: picture.columns, height: picture.rows, rgb: picture.rgb)
    }

    /// The pixel nearest to (`x`, `y`) of a `columns` x `rows` grid laid over the picture.
    func sample(x: Int, y: Int, columns: Int, rows: Int) -> TerminalColor {
        let px = min(width - 1, x * width / max(1, columns))
        let py = min(height - 1, y * height / max(1, rows))
        let i = (py * width + px) * 3
        return .rgb(rgb[i], rgb[i + 1], rgb[i + 2])
    }
}

extension Canvas {
    /// Draws `pixels` into the box at (`row`, `column`) of `columns` x `rows` cells with half blocks;
    /// without a picture, a framed placeholder with a note glyph (the default artwork).
    mutating func drawArtwork(_ pixels: ArtworkPixels?, row: Int, column: Int, columns: Int, rows: Int, accent: TerminalColor) {
        guard columns > 0, rows > 0 else { return }
        guard let pixels else {
            guard columns > 1, rows > 1 else { return }
            let style = CellStyle(foreground: accent)
            put("┌" + String(repeating: "─", count: columns - 2) + "┐", row: row, column: column, style: style)
            for y in 1..<(rows - 1) {
                put("│", row: row + y, column: column, style: style)
                put("│", row: row + y, column: column + columns - 1, style: style)
            }
            put("└" + String(repeating: "─", count: columns - 2) + "┘", row: row + rows - 1, column: column, style: style)
            putCentered("♪", row: row + rows / 2, style: CellStyle(foreground: accent, bold: true), in: column..<(column + columns))
            return
        }
        for y in 0..<rows {
            for x in 0..<columns {
                let top = pixels.sample(x: x, y: 2 * y, columns: columns, rows: 2 * rows)
                let bottom = pixels.sample(x: x, y: 2 * y + 1, columns: columns, rows: 2 * rows)
                set(row: row + y, column: column + x, character: "▀", style: CellStyle(foreground: top, background: bottom))
            }
        }
    }
}
