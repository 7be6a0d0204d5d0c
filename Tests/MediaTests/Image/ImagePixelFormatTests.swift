import Foundation
import Media
import PlayerCore
import TestProcesses
import Testing

/// Pictures of four coloured quadrants, encoded by the `ffmpeg` tool in every pixel layout the
/// `png` and `mjpeg` decoders hand back, read back through libswscale: each quadrant's colour is
/// where it was encoded and the average is theirs.
/// Serialized: its 42 cases each run the `ffmpeg` tool and wait for it, and side by side they
/// kept the cooperative pool's threads busy long enough to starve the player tests running beside.
@Suite(.blocking, .serialized) struct ImagePixelFormatTests {
    struct Case: Sendable, CustomStringConvertible {
        let format: String
        let pixelFormat: String
        var size = (width: 64, height: 64)
        /// Largest difference of a component from what was encoded (lossy JPEG, palette dither).
        var tolerance = 3
        var options: [String] = []

        var description: String { "\(format) \(pixelFormat) \(size.width)x\(size.height)" }
        var isGray: Bool { ["gray", "ya", "mono"].contains { pixelFormat.hasPrefix($0) } }
    }

    /// Top left, top right, bottom left, bottom right.
    static let quadrants = [
        RGBColor(red: 0xC0, green: 0x30, blue: 0x10), RGBColor(red: 0x20, green: 0x80, blue: 0xE0),
        RGBColor(red: 0x30, green: 0xA0, blue: 0x40), RGBColor(red: 0xF0, green: 0xD0, blue: 0x60),
    ]

    static let cases: [Case] = [
        Case(format: "png", pixelFormat: "rgb24"),
        Case(format: "png", pixelFormat: "rgba"),
        Case(format: "png", pixelFormat: "rgb48be"),
        Case(format: "png", pixelFormat: "rgba64be"),
        Case(format: "png", pixelFormat: "gray"),
        Case(format: "png", pixelFormat: "gray16be"),
        Case(format: "png", pixelFormat: "ya8"),
        // The palette is dithered by the encoder: single pixels miss, a quadrant's average does not.
        Case(format: "png", pixelFormat: "pal8", tolerance: 8),
        // One bit per pixel, dithered by the encoder: a quadrant's average is its gray.
        Case(format: "png", pixelFormat: "monob", tolerance: 16),
        Case(format: "jpg", pixelFormat: "yuvj420p", tolerance: 8),
        Case(format: "jpg", pixelFormat: "yuvj422p", tolerance: 8),
        Case(format: "jpg", pixelFormat: "yuvj444p", tolerance: 8),
        // Limited range (16-235), which JPEG allows only as an extension.
        Case(format: "jpg", pixelFormat: "yuv420p", tolerance: 8, options: ["-strict", "-1"]),
        // Larger than the sampling grid: sampled, not read whole.
        Case(format: "png", pixelFormat: "rgb24", size: (width: 800, height: 608)),
        Case(format: "jpg", pixelFormat: "yuvj420p", size: (width: 800, height: 608), tolerance: 8),
    ]

    /// `color` as the gray the encoder stores for it (BT.601 luma, full range).
    static func gray(_ color: RGBColor) -> RGBColor {
        let red = 0.299 * Double(color.red), green = 0.587 * Double(color.green), blue = 0.114 * Double(color.blue)
        let luma = UInt8((red + green + blue).rounded())
        return RGBColor(red: luma, green: luma, blue: luma)
    }

    static func mean(_ colors: [RGBColor]) -> RGBColor {
        func average(_ component: KeyPath<RGBColor, UInt8>) -> UInt8 {
            let sum = colors.reduce(0) { $0 + Int($1[keyPath: component]) }
            return UInt8((Double(sum) / Double(colors.count)).rounded())
        }
        return RGBColor(red: average(\.red), green: average(\.green), blue: average(\.blue))
    }

    static func picture(_ testCase: Case) throws -> Data {
        let (width, height) = (testCase.size.width / 2, testCase.size.height / 2)
        let parts = quadrants.enumerated().map { index, color in
            "color=c=0x\(color.hex.dropFirst()):s=\(width)x\(height)[q\(index)]"
        }
        let graph = parts.joined(separator: ";") + ";[q0][q1]hstack[top];[q2][q3]hstack[bottom];[top][bottom]vstack"
        return try ImageFixture.image(source: graph, format: testCase.format, pixelFormat: testCase.pixelFormat, options: testCase.options)
    }

    @Test(arguments: cases)
    func quadrantsComeBackWhereTheyWereEncoded(_ testCase: Case) throws {
        let data = try Self.picture(testCase)
        let kind: ImageKind = testCase.format == "png" ? .png : .jpeg
        let expected = testCase.isGray ? Self.quadrants.map(Self.gray) : Self.quadrants

        let decoded = try ImageDecoder.decode(data, kind: kind)
        #expect(decoded.width == testCase.size.width && decoded.height == testCase.size.height)
        let cells = try ImageDecoder.thumbnail(data, kind: kind, columns: 2, rows: 2)
        for (cell, color) in zip(cells, expected) {
            #expect(cell.distance(to: color) <= testCase.tolerance, "\(testCase): \(cell.hex), encoded \(color.hex)")
        }
        #expect(
            decoded.averageColor.distance(to: Self.mean(expected)) <= testCase.tolerance,
            "\(testCase): \(decoded.averageColor.hex), encoded \(Self.mean(expected).hex)")
    }

    /// One pixel, one row, one column, odd sizes under chroma subsampling, and strips longer than
    /// the sampling grid: each converts at its size, to the colour the `ffmpeg` tool itself decodes
    /// from the same file (a JPEG this small does not keep the colour it was given).
    @Test(arguments: ["1:1", "3:5", "1:300", "700:1", "1001:3"], ["png/rgba", "png/pal8", "png/gray16be", "jpg/yuvj420p", "jpg/yuvj422p"])
    func oddSizesConvert(size: String, encoding: String) throws {
        let (format, pixelFormat) = (String(encoding.prefix { $0 != "/" }), String(encoding.drop { $0 != "/" }.dropFirst()))
        let dimensions = size.split(separator: ":").compactMap { Int($0) }
        let data = try ImageFixture.image(
            source: "color=c=0x336699:s=1024x1024,format=rgb24,crop=\(size):0:0", format: format, pixelFormat: pixelFormat)
        let kind: ImageKind = format == "png" ? .png : .jpeg
        let decoded = try ImageDecoder.decode(data, kind: kind)
        #expect([decoded.width, decoded.height] == dimensions)
        let reference = try Self.averageDecodedByTheTool(data, format: format)
        #expect(decoded.averageColor.distance(to: reference) <= 3, "\(size) \(encoding): \(decoded.averageColor.hex), ffmpeg \(reference.hex)")
        #expect(try ImageDecoder.thumbnail(data, kind: kind, columns: 3, rows: 2).count == 6)
    }

    /// The average colour of `data` as the `ffmpeg` tool decodes it to RGB.
    static func averageDecodedByTheTool(_ data: Data, format: String) throws -> RGBColor {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-picture-\(UUID().uuidString).\(format)")
        try data.write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let rgb = try FFmpegFixture.make(["-i", input.path, "-f", "rawvideo", "-pix_fmt", "rgb24"], fileName: "decoded.rgb").get()
        let pixels = stride(from: 0, to: rgb.count - 2, by: 3).map { RGBColor(red: rgb[$0], green: rgb[$0 + 1], blue: rgb[$0 + 2]) }
        return mean(pixels)
    }

    @Test(arguments: ["rgba", "ya8"])
    func transparentPixelsDoNotColourTheAverage(pixelFormat: String) throws {
        // An opaque left half and a fully transparent right half whose hidden colour differs.
        let data = try ImageFixture.image(
            source: "color=c=0xC03010:s=32x32,format=rgba[a];color=c=0x2080E0@0:s=32x32,format=rgba[b];[a][b]hstack",
            format: "png", pixelFormat: pixelFormat)
        let decoded = try ImageDecoder.decode(data, kind: .png)
        let opaque = pixelFormat == "ya8" ? Self.gray(Self.quadrants[0]) : Self.quadrants[0]
        #expect(decoded.averageColor.distance(to: opaque) <= 3, "\(pixelFormat): \(decoded.averageColor.hex)")
    }
}
