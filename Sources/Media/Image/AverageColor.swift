import Foundation

/// A colour as 8-bit sRGB components: the average colour of a picture, which front ends use to
/// tint the now-playing screen. A plain value so it can be cached on disk with the image
/// and computed only once.
package struct RGBColor: Sendable, Hashable, Codable {
    package let red: UInt8
    package let green: UInt8
    package let blue: UInt8

    package init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// `#RRGGBB`, upper-case: the form terminals (truecolor escapes) and config files take.
    package var hex: String {
        "#" + [red, green, blue].map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }

    /// The colour of `#RRGGBB` or `RRGGBB`, or nil for anything else.
    package init?(hex: String) {
        let digits = hex.hasPrefix("#") ? hex.dropFirst() : hex[...]
        guard digits.count == 6, let value = UInt32(digits, radix: 16) else { return nil }
        self.init(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
    }

    /// The largest difference of one component from `other`'s: how tests compare colours that
    /// went through lossy compression.
    package func distance(to other: RGBColor) -> Int {
        max(abs(Int(red) - Int(other.red)), abs(Int(green) - Int(other.green)), abs(Int(blue) - Int(other.blue)))
    }
}

/// Sums pixels into an average. Alpha-weighted: fully transparent pixels (the empty corners of a
/// round logo) do not pull the average towards whatever colour their invisible RGB happens to be.
struct ColorAccumulator {
    private var red = 0.0, green = 0.0, blue = 0.0, weight = 0.0
    private var plainRed = 0.0, plainGreen = 0.0, plainBlue = 0.0, count = 0.0

    /// Adds one pixel, components 0...1, alpha 0...1.
    mutating func add(red r: Double, green g: Double, blue b: Double, alpha a: Double = 1) {
        red += r * a
        green += g * a
        blue += b * a
        weight += a
        plainRed += r
        plainGreen += g
        plainBlue += b
        count += 1
    }

    /// The average, or nil when no pixel was added. An image transparent everywhere gets the
    /// unweighted average.
    var color: RGBColor? {
        guard count > 0 else { return nil }
        let (r, g, b, w) = weight > 1e-9 ? (red, green, blue, weight) : (plainRed, plainGreen, plainBlue, count)
        return RGBColor(red: Self.byte(r / w), green: Self.byte(g / w), blue: Self.byte(b / w))
    }

    static func byte(_ value: Double) -> UInt8 {
        UInt8(max(0, min(255, (value * 255).rounded())))
    }
}
