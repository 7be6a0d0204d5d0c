import CNcurses

/// What the keyboard or the terminal did.
package enum TerminalInput: Sendable, Equatable {
    case key(Key)
    case resize
}

/// The terminal through ncursesw: copies a `Canvas` to the screen and reads keys. Not thread-safe
/// (ncurses is not): one thread owns it, draws and reads.
///
/// Colours: each (foreground, background) pair used gets an ncurses colour pair on first use.
/// Where the terminal description is a direct-colour one (`TERM=xterm-direct`, 2^24 colours),
/// cells are drawn in truecolour; elsewhere with the nearest entry of the 256-colour palette, and
/// on terminals with fewer colours palette entries out of range fall back to the defaults.
///
/// `@unchecked Sendable`: it is made on one thread and handed to the one that draws; only
/// `end()` (idempotent, curses' own `isendwin` check) may also run from an exit handler.
package final class TerminalDisplay: @unchecked Sendable {
    private var pairs: [PairKey: Int32] = [:]
    private let colorCount: Int
    private let pairLimit: Int
    private var previous: Canvas?
    private var ended = false

    private struct PairKey: Hashable {
        let foreground: Int32
        let background: Int32
    }

    /// Takes over the terminal. `inputTimeout` bounds each `read()` (milliseconds), which is also
    /// the redraw tick of a loop that alternates reading and drawing.
    ///
    /// - Throws: `TerminalDisplayError.unusable` when curses cannot start on this terminal.
    package init(inputTimeout: Int32 = 50) throws(TerminalDisplayError) {
        guard tn_start(inputTimeout) == 0 else { throw .unusable }
        colorCount = Int(tn_colors())
        pairLimit = Int(tn_color_pairs())
    }

    deinit { end() }

    /// Rows and columns now.
    package var size: (width: Int, height: Int) {
        var rows: Int32 = 0
        var columns: Int32 = 0
        tn_size(&rows, &columns)
        return (Int(columns), Int(rows))
    }

    /// Shows `canvas`. Rows equal to the previous frame's are skipped; ncurses then sends only
    /// what changed.
    package func draw(_ canvas: Canvas) {
        let full = previous.map { $0.width != canvas.width || $0.height != canvas.height } ?? true
        if full { tn_clear() }
        for row in 0..<canvas.height {
            if !full, let previous, Self.row(row, of: previous) == Self.row(row, of: canvas) { continue }
            var column = 0
            while column < canvas.width {
                let style = canvas[row, column].style
                var run = ""
                let start = column
                while column < canvas.width, canvas[row, column].style == style {
                    run.append(canvas[row, column].character)
                    column += 1
                }
                // The last cell of the last row is left alone: writing it would scroll the screen.
                if row == canvas.height - 1, column == canvas.width { run.removeLast() }
                guard !run.isEmpty else { continue }
                tn_put(Int32(row), Int32(start), run, pair(for: style), Self.flags(style))
            }
        }
        tn_refresh()
        previous = canvas
    }

    /// Forgets the last frame, so the next `draw` repaints everything (after a resize).
    package func invalidate() { previous = nil }

    /// Asks the terminal to put `text` on the clipboard (`OSC52`). Written straight to the
    /// terminal between two frames, after curses has sent everything it had.
    package func copyToClipboard(_ text: String) {
        guard !ended, let bytes = OSC52.sequence(copying: text) else { return }
        _ = bytes.withUnsafeBufferPointer { tn_write_raw($0.baseAddress, $0.count) }
    }

    /// Waits up to the input timeout for a key; nil when none came.
    package func read() -> TerminalInput? {
        var value: UInt32 = 0
        let kind = tn_read_key(&value)
        if kind == Int32(TN_ERR) { return nil }
        if kind == Int32(TN_KEY_CODE) {
            switch Int(value) {
            case TN_KEY_RESIZE: return .resize
            case TN_KEY_UP: return .key(.up)
            case TN_KEY_DOWN: return .key(.down)
            case TN_KEY_LEFT: return .key(.left)
            case TN_KEY_RIGHT: return .key(.right)
            case TN_KEY_ENTER: return .key(.enter)
            case TN_KEY_BACKSPACE: return .key(.backspace)
            default: return nil
            }
        }
        switch value {
        case 10, 13: return .key(.enter)
        case 27: return .key(.escape)
        case 9: return .key(.tab)
        case 8, 127: return .key(.backspace)
        default:
            guard value >= 0x20, let scalar = Unicode.Scalar(value) else { return nil }
            return .key(.character(Character(scalar)))
        }
    }

    /// Gives the terminal back (idempotent): called on every way out.
    package func end() {
        guard !ended else { return }
        ended = true
        tn_end()
    }

    private static func row(_ row: Int, of canvas: Canvas) -> ArraySlice<Canvas.Cell> {
        canvas.cells[(row * canvas.width)..<((row + 1) * canvas.width)]
    }

    private static func flags(_ style: CellStyle) -> Int32 {
        (style.bold ? Int32(TN_ATTR_BOLD) : 0) | (style.dim ? Int32(TN_ATTR_DIM) : 0) | (style.reverse ? Int32(TN_ATTR_REVERSE) : 0)
    }

    private func number(_ color: TerminalColor) -> Int32 {
        // A direct-colour terminal (TERM=xterm-direct and the like: 2^24 colours) takes RGB as the
        // colour number; numbers below 8 stay the ANSI colours.
        if colorCount >= 1 << 24 {
            switch color {
            case .standard: return -1
            case .indexed(let index) where index < 8: return Int32(index)
            case .indexed(let index):
                let (r, g, b) = TerminalColor.rgb(ofIndexed: index)
                return Int32(r) << 16 | Int32(g) << 8 | Int32(b)
            case .rgb(let r, let g, let b):
                // (0, 0, <8) would read as an ANSI colour: nudge it.
                let value = Int32(r) << 16 | Int32(g) << 8 | Int32(b)
                return value < 8 ? 8 : value
            }
        }
        switch color.nearestIndexed {
        case .indexed(let index) where Int(index) < colorCount: return Int32(index)
        default: return -1
        }
    }

    private func pair(for style: CellStyle) -> Int32 {
        let key = PairKey(foreground: number(style.foreground), background: number(style.background))
        if key.foreground == -1 && key.background == -1 { return 0 }
        if let known = pairs[key] { return known }
        guard pairLimit > 1 else { return 0 }
        if pairs.count >= pairLimit - 1 { pairs.removeAll() }  // Start over; pairs are redefined as used.
        let next = Int32(pairs.count + 1)
        _ = tn_define_pair(next, key.foreground, key.background)
        pairs[key] = next
        return next
    }
}

package enum TerminalDisplayError: Error, Sendable {
    /// curses could not start (no terminal, or an unknown `TERM`).
    case unusable
}
