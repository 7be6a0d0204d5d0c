import PlayerCore
import Presentation

/// The one-line mini player at the bottom of every library screen: state dot, "Title — Status"
/// (the compact error form while failed) and a thin progress bar when the position is known.
package enum MiniPlayerBar {
    package static func draw(_ view: MiniPlayerViewState, on canvas: inout Canvas, row: Int, accent: TerminalColor = .indexed(39)) {
        let color = TerminalColor(view.indicatorColor)
        canvas.put("●", row: row, column: 1, style: CellStyle(foreground: color, bold: true))
        let barWidth = view.progressFraction == nil ? 0 : min(20, canvas.width / 5)
        let used = canvas.put(view.line, row: row, column: 3, style: view.isFailed ? CellStyle(foreground: color, bold: true) : .plain,
                              maxWidth: canvas.width - 6 - barWidth)
        if barWidth > 0, 3 + used + 2 < canvas.width - barWidth {
            canvas.put(Bars.progress(fraction: view.progressFraction, width: barWidth), row: row, column: canvas.width - barWidth - 1,
                       style: CellStyle(foreground: accent))
        }
    }
}
