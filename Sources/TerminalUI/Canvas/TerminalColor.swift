import PlayerCore

/// A colour as the terminal is asked for it. Front ends pick the richest form the terminal
/// supports: truecolor, else the nearest of the 256-colour palette (`nearestIndexed`).
package enum TerminalColor: Sendable, Hashable {
    case standard
    /// One of the 256-colour palette's entries.
    case indexed(UInt8)
    case rgb(UInt8, UInt8, UInt8)

    /// The state indicator colours of `PlayerState.indicatorColor`, from the 256-colour palette.
    package init(_ indicator: IndicatorColor) {
        switch indicator {
        case .gray: self = .indexed(245)
        case .orange: self = .indexed(208)
        case .green: self = .indexed(34)
        case .blue: self = .indexed(33)
        case .yellow: self = .indexed(220)
        case .red: self = .indexed(196)
        }
    }

    /// A picture's average colour as the screen's accent, lifted when it is too dark to read on
    /// a dark terminal.
    package static func accent(_ picture: ArtworkPicture) -> TerminalColor {
        let (r, g, b) = (Int(picture.accent[0]), Int(picture.accent[1]), Int(picture.accent[2]))
        let brightest = max(r, g, b, 1)
        guard brightest < 128 else { return .rgb(UInt8(r), UInt8(g), UInt8(b)) }
        let scale = 160.0 / Double(brightest)
        return .rgb(UInt8(min(255, Double(r) * scale)), UInt8(min(255, Double(g) * scale)), UInt8(min(255, Double(b) * scale)))
    }

    /// The nearest entry of the xterm 6x6x6 colour cube (indices 16...231), for terminals without
    /// truecolor.
    package var nearestIndexed: TerminalColor {
        guard case .rgb(let r, let g, let b) = self else { return self }
        func level(_ v: UInt8) -> Int { v < 48 ? 0 : v < 115 ? 1 : (Int(v) - 35) / 40 }
        return .indexed(UInt8(16 + 36 * level(r) + 6 * level(g) + level(b)))
    }

    /// The RGB an xterm shows for palette entry `index` (16...255: the cube and the grays; 8...15:
    /// the bright ANSI colours), for terminals that take 24-bit colour numbers.
    static func rgb(ofIndexed index: UInt8) -> (UInt8, UInt8, UInt8) {
        let value = Int(index)
        if value >= 232 {
            let level = UInt8(8 + (value - 232) * 10)
            return (level, level, level)
        }
        if value >= 16 {
            let cube = value - 16
            func level(_ n: Int) -> UInt8 { n == 0 ? 0 : UInt8(55 + n * 40) }
            return (level(cube / 36), level(cube / 6 % 6), level(cube % 6))
        }
        let bright: [(UInt8, UInt8, UInt8)] = [
            (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
            (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
        ]
        return bright[value]
    }
}
