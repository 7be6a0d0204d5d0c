import Foundation
import Media
import PlayerCore
import TestProcesses
import Testing

@Suite(.blocking) struct ImageDecoderTests {
    static let blue = RGBColor(red: 0x33, green: 0x66, blue: 0x99)
    static let gray = RGBColor(red: 0x80, green: 0x80, blue: 0x80)

    /// PNG layouts the `png` decoder hands back: packed RGB, alpha, palette, 16-bit, gray.
    @Test(arguments: ["rgb24", "rgba", "pal8", "rgb48be", "rgba64be"])
    func solidPNGAverage(pixelFormat: String) throws {
        let data = try ImageFixture.image(color: "0x336699", size: "64x48", format: "png", pixelFormat: pixelFormat)
        let decoded = try ImageDecoder.decode(data, kind: .png)
        #expect(decoded.width == 64)
        #expect(decoded.height == 48)
        #expect(decoded.averageColor.distance(to: Self.blue) <= 3, "\(pixelFormat): \(decoded.averageColor.hex)")
    }

    /// JPEG layouts the `mjpeg` decoder hands back: 4:2:0, 4:2:2, 4:4:4 (full range).
    @Test(arguments: ["yuvj420p", "yuvj422p", "yuvj444p"])
    func solidJPEGAverage(pixelFormat: String) throws {
        let data = try ImageFixture.image(color: "0x336699", size: "64x48", format: "jpg", pixelFormat: pixelFormat)
        let decoded = try ImageDecoder.decode(data, kind: .jpeg)
        #expect(decoded.width == 64)
        #expect(decoded.height == 48)
        #expect(decoded.averageColor.distance(to: Self.blue) <= 6, "\(pixelFormat): \(decoded.averageColor.hex)")
    }

    @Test(arguments: [("png", "gray"), ("png", "ya8"), ("png", "gray16be"), ("jpg", "gray")])
    func grayAverage(format: String, pixelFormat: String) throws {
        let data = try ImageFixture.image(color: "0x808080", size: "40x30", format: format, pixelFormat: pixelFormat)
        let decoded = try ImageDecoder.decode(data, kind: format == "png" ? .png : .jpeg)
        #expect(decoded.averageColor.distance(to: Self.gray) <= 4, "\(format)/\(pixelFormat): \(decoded.averageColor.hex)")
    }

    @Test func largePictureIsSampled() throws {
        let data = try ImageFixture.image(color: "0xC03010", size: "1200x900", format: "png")
        let decoded = try ImageDecoder.decode(data, kind: .png)
        #expect(decoded.width == 1200)
        #expect(decoded.averageColor.distance(to: RGBColor(red: 0xC0, green: 0x30, blue: 0x10)) <= 3)
    }

    @Test func garbageIsCorruptDataWithoutACrash() throws {
        // Deterministic noise, so a failure reproduces.
        let noise = Data((0..<4096).map { (index: Int) in UInt8(truncatingIfNeeded: (index &* 2_654_435_761) >> 7) })
        let png = try ImageFixture.image(format: "png")
        let jpeg = try ImageFixture.image(format: "jpg")
        let cases: [(Data, ImageKind)] = [
            (noise, .png), (noise, .jpeg), (Data(), .png),
            (Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + noise, .png),
            (Data([0xFF, 0xD8, 0xFF]) + noise, .jpeg),
            (png.prefix(png.count / 2), .png),
            (png, .jpeg), (jpeg, .png),
        ]
        for (data, kind) in cases {
            #expect(throws: PlaybackError.self) { try ImageDecoder.decode(data, kind: kind) }
            do {
                _ = try ImageDecoder.decode(data, kind: kind)
            } catch {
                #expect(error.code == .corruptData)
            }
        }
    }

    @Test func pictureOverThePixelCapIsRefused() throws {
        let data = try ImageFixture.image(size: "64x48", format: "png")
        #expect(throws: PlaybackError.self) { try ImageDecoder.decode(data, kind: .png, maxPixels: 1000) }
        #expect(try ImageDecoder.decode(data, kind: .png, maxPixels: 64 * 48).width == 64)
    }

    @Test(arguments: ["png", "jpg"])
    func aThumbnailKeepsWhereEachColourIs(format: String) throws {
        // Red on the left half, blue on the right; green below both.
        let data = try ImageFixture.image(
            source: "color=c=red:s=32x16[a];color=c=blue:s=32x16[b];[a][b]hstack[top];color=c=0x00ff00:s=64x16[bottom];[top][bottom]vstack",
            format: format, pixelFormat: format == "png" ? "rgb24" : nil)
        let cells = try ImageDecoder.thumbnail(data, kind: format == "png" ? .png : .jpeg, columns: 4, rows: 2)
        #expect(cells.count == 8)
        let red = RGBColor(red: 255, green: 0, blue: 0), blue = RGBColor(red: 0, green: 0, blue: 255), green = RGBColor(red: 0, green: 255, blue: 0)
        #expect(cells[0].distance(to: red) < 40 && cells[1].distance(to: red) < 40, "\(cells)")
        #expect(cells[2].distance(to: blue) < 40 && cells[3].distance(to: blue) < 40, "\(cells)")
        #expect(cells[4...].allSatisfy { $0.distance(to: green) < 40 }, "\(cells)")
    }
}
