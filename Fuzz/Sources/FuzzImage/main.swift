import Foundation
import FuzzSupport
import Media
import PlayerCore

// The artwork decoder (FFmpeg's png and mjpeg decoders, libswscale's pixel conversion). Input: one
// byte choosing the decoder and the thumbnail size, then the image.
//
// Contract: a picture with a positive size and a colour for every thumbnail cell, or `.corruptData`.
// The pixel cap is lowered so a tiny file claiming a huge picture costs little.
@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzImage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let (header, body) = fuzzSplit(fuzzBytes(data, size), header: 1)
    let image = Data(body)
    // Mostly the kind the bytes announce, as the artwork service does; sometimes the other one.
    let sniffed = ImageKind.detect(image) ?? .png
    let kind: ImageKind = header[0] & 1 == 0 ? sniffed : (sniffed == .png ? .jpeg : .png)
    let maxPixels = 1 << 20
    do {
        let decoded = try ImageDecoder.decode(image, kind: kind, maxPixels: maxPixels)
        fuzzCheck(decoded.width > 0 && decoded.height > 0, "picture of \(decoded.width) x \(decoded.height)")
        check(decoded.averageColor)
        let columns = Int(header[0] >> 1 & 0x7) + 1, rows = Int(header[0] >> 4 & 0x7) + 1
        let cells = try ImageDecoder.thumbnail(image, kind: kind, columns: columns, rows: rows, maxPixels: maxPixels)
        fuzzCheck(cells.count == columns * rows, "\(cells.count) cells for \(columns) x \(rows)")
        cells.forEach(check)
    } catch {
        fuzzCheck(error, isOneOf: [.corruptData])
    }
    return 0
}

func check(_ color: RGBColor) {
    fuzzCheck(color.hex.utf8.count == 7 && color.hex.hasPrefix("#"), "colour \(color.hex)")
}

runLibFuzzer(fuzzImage)
