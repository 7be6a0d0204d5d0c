import Presentation

/// The level meter drawn on a canvas: one row per channel,
/// `L ███████████▌·······│······ −6 dB`: the RMS as a bar in eighths of a cell, coloured green,
/// then yellow from −18 dB, red from −6 dB; the held peak as a bar mark; the held peak in dB.
package enum LevelMeterBars {
    static let eighths: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// Draws both channels from `row` (two rows) at `column`, `width` columns in all.
    package static func draw(_ meter: LevelMeterViewState, on canvas: inout Canvas, row: Int, column: Int, width: Int) {
        let barWidth = width - 2 - 8
        guard barWidth >= 8 else { return }
        for (offset, (label, channel)) in [("L", meter.left), ("R", meter.right)].enumerated() {
            let y = row + offset
            canvas.put(label, row: y, column: column, style: .dim)
            let bar = cells(channel.rmsFraction, width: barWidth)
            let mark = min(barWidth - 1, Int((channel.heldFraction * Double(barWidth)).rounded(.down)))
            for x in 0..<barWidth {
                let style = CellStyle(foreground: colour(atCell: x, of: barWidth))
                let character: Character =
                    if x < bar.full { "█" } else if x == bar.full, let part = bar.part { part } else if x == mark && channel.held > LevelMeterViewState.floor {
                        "│"
                    } else { "·" }
                canvas.set(row: y, column: column + 2 + x, character: character, style: character == "·" ? .dim : style)
            }
            canvas.put(channel.heldText, row: y, column: column + 3 + barWidth, style: .dim)
        }
    }

    /// Full cells, and the partial cell after them, for a fraction of `width`.
    static func cells(_ fraction: Double, width: Int) -> (full: Int, part: Character?) {
        let eighthsLit = Int((min(1, max(0, fraction)) * Double(width * 8)).rounded())
        let full = eighthsLit / 8
        let rest = eighthsLit % 8
        return (full, rest == 0 || full >= width ? nil : eighths[rest - 1])
    }

    /// Green below −18 dB, yellow below −6 dB, red above: where on the scale cell `x` sits.
    static func colour(atCell x: Int, of width: Int) -> TerminalColor {
        let decibels = LevelMeterViewState.floor * (1 - (Double(x) + 0.5) / Double(width))
        if decibels >= -6 { return .indexed(196) }
        if decibels >= -18 { return .indexed(220) }
        return .indexed(40)
    }
}
