import PlayerCore

/// A colour as the terminal is asked for it. Front ends pick the richest form the terminal
/// supports: truecolor, else the nearest of the 256-colour palette (`nearestIndexed`).
public enum TerminalColor: Sendable, Hashable {
    case standard
    /// One of the 256-colour palette's entries.
    case indexed(UInt8)
    case rgb(UInt8, UInt8, UInt8)

    /// The state indicator colours of `PlayerState.indicatorColor`, from the 256-colour palette.
    public init(_ indicator: IndicatorColor) {
        switch indicator {
        case .gray: self = .indexed(245)
        case .orange: self = .indexed(208)
        case .green: self = .indexed(34)
        case .blue: self = .indexed(33)
        case .yellow: self = .indexed(220)
        case .red: self = .indexed(196)
        }
    }

    /// The nearest entry of the xterm 6x6x6 colour cube (indices 16...231), for terminals without
    /// truecolor.
    public var nearestIndexed: TerminalColor {
        guard case .rgb(let r, let g, let b) = self else { return self }
        func level(_ v: UInt8) -> Int { v < 48 ? 0 : v < 115 ? 1 : (Int(v) - 35) / 40 }
        return .indexed(UInt8(16 + 36 * level(r) + 6 * level(g) + level(b)))
    }
}
