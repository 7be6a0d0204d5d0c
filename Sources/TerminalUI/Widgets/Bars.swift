/// Horizontal bars drawn with block characters.
enum Bars {
    /// `width` cells: played part solid, buffered part shaded, the rest light.
    static func progress(fraction: Double?, buffered: Double? = nil, width: Int) -> String {
        guard width > 0 else { return "" }
        let played = cells(fraction, width)
        let buffer = max(played, cells(buffered, width))
        return String(repeating: "█", count: played) + String(repeating: "▒", count: buffer - played)
            + String(repeating: "░", count: width - buffer)
    }

    /// A gain from 0 to 1 as a bar of `width` cells.
    static func gain(_ value: Double, width: Int) -> String {
        let filled = cells(value, width)
        return String(repeating: "■", count: filled) + String(repeating: "·", count: max(0, width - filled))
    }

    private static func cells(_ fraction: Double?, _ width: Int) -> Int {
        guard let fraction, fraction.isFinite else { return 0 }
        return min(width, max(0, Int((fraction * Double(width)).rounded())))
    }
}

/// The spinner shown while preparing or buffering: one frame per redraw tick.
package enum Spinner {
    static let frames: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    package static func frame(_ tick: Int) -> Character { frames[((tick % frames.count) + frames.count) % frames.count] }
}
