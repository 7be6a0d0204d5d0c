/// The artwork shrunk for a text front end: `columns` x `rows` colours, row by row, and the
/// picture's average colour (the screen's accent). Small on purpose:
/// a terminal draws at most a few dozen cells across.
public struct ArtworkPicture: Sendable, Hashable, Codable {
    public let columns: Int
    public let rows: Int
    /// `columns * rows * 3` bytes, red, green, blue.
    public let rgb: [UInt8]
    /// Red, green, blue of the average colour.
    public let accent: [UInt8]

    public init?(columns: Int, rows: Int, rgb: [UInt8], accent: [UInt8]) {
        guard columns > 0, rows > 0, rgb.count == columns * rows * 3, accent.count == 3 else { return nil }
        self.columns = columns
        self.rows = rows
        self.rgb = rgb
        self.accent = accent
    }
}
