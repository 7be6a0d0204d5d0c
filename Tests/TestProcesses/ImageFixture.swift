import Foundation

/// Real PNG and JPEG files made at test time by the `ffmpeg` tool (an argument vector, never a
/// shell string), so the artwork decoder is tested against what a real encoder writes, not bytes
/// typed into the test. A missing tool or a failed run throws with the reason.
package enum ImageFixture {
    /// A solid `color` (`0xRRGGBB`) picture of `size` as `format` ("png" or "jpg"), optionally
    /// converted to `pixelFormat` before encoding (pal8, rgba, gray, yuvj444p...).
    package static func image(color: String = "0x336699", size: String = "64x48", format: String = "png", pixelFormat: String? = nil) throws -> Data {
        try image(source: "color=c=\(color):s=\(size)", format: format, pixelFormat: pixelFormat)
    }

    /// A picture from any lavfi `source` graph (e.g. two colours side by side); `options` go to the
    /// encoder (`-strict -1` lets the JPEG encoder take limited-range `yuv420p`).
    package static func image(source: String, format: String = "png", pixelFormat: String? = nil, options: [String] = []) throws -> Data {
        var arguments = ["-f", "lavfi", "-i", source, "-frames:v", "1"]
        if let pixelFormat { arguments += ["-pix_fmt", pixelFormat] }
        if format == "jpg" { arguments += ["-q:v", "2"] }
        arguments += options
        return try FFmpegFixture.make(arguments, fileName: "fixture.\(format)").get()
    }
}
