import CFFmpeg
import Foundation
import PlayerCore

/// A decoded picture's facts: its size and its average colour. The bitmap itself is dropped at
/// once; front ends decode the bytes again at the size they draw.
public struct DecodedImage: Sendable, Equatable {
    public let kind: ImageKind
    public let width: Int
    public let height: Int
    public let averageColor: RGBColor

    public init(kind: ImageKind, width: Int, height: Int, averageColor: RGBColor) {
        self.kind = kind
        self.width = width
        self.height = height
        self.averageColor = averageColor
    }
}

/// Decodes a PNG or a JPEG with the FFmpeg libraries the program already links (libavcodec's
/// `png` and `mjpeg` decoders: one packet in, one frame out) and averages its colour.
///
/// Pixel conversion is done here, not with libswscale: one more library for a one-number answer
/// is not worth it. The frame's pixel-format descriptor (libavutil/pixdesc.h) says where each
/// component lives, so every packed or planar RGB, gray and YUV layout of 8 to 16 bits the two
/// decoders produce is read the same way (RGB24, RGBA, BGR0..., RGB48BE, RGBA64BE, GRAY8,
/// GRAY16BE, YA8, YA16BE, YUV(J)420P/422P/440P/444P/411P, GBRP), plus PAL8 and the 1-bit
/// MONOBLACK/MONOWHITE. YUV is converted per pixel with the frame's matrix (BT.709 when tagged,
/// otherwise BT.601) and range (JPEG's full range for the `J` formats). Float and Bayer layouts,
/// which neither decoder emits, are refused as `corruptData`.
///
/// Large pictures are sampled on a grid of at most `sampleGrid` x `sampleGrid` points: an average
/// colour does not need all of a 4000 x 4000 cover. `maxPixels` bounds what the decoder allocates
/// (a 100-byte PNG can claim to be 60000 x 60000).
public enum ImageDecoder {
    /// Points per axis the average is computed over, at most.
    static let sampleGrid = 256

    /// - Throws: `corruptData` when the bytes do not decode (garbage, truncation, a picture over
    ///   `maxPixels`), never crashes on any input.
    public static func decode(_ data: Data, kind: ImageKind, maxPixels: Int = MediaLimits.maxImagePixels) throws(PlaybackError) -> DecodedImage {
        try withFrame(data, kind: kind, maxPixels: maxPixels) { frame throws(PlaybackError) in
            let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
            guard let color = sample(frame, columns: 1, rows: 1)?.average else {
                throw PlaybackError(.corruptData, underlying: "unsupported pixel format \(frame.pointee.format)")
            }
            return DecodedImage(kind: kind, width: width, height: height, averageColor: color)
        }
    }

    /// The picture as `columns` x `rows` colours, row by row, each the average of the picture's
    /// part under it: what a terminal draws with half blocks (two rows of cells per character).
    ///
    /// - Throws: as `decode`.
    public static func thumbnail(
        _ data: Data, kind: ImageKind, columns: Int, rows: Int, maxPixels: Int = MediaLimits.maxImagePixels
    ) throws(PlaybackError) -> [RGBColor] {
        guard columns > 0, rows > 0 else { return [] }
        return try withFrame(data, kind: kind, maxPixels: maxPixels) { frame throws(PlaybackError) in
            guard let cells = sample(frame, columns: columns, rows: rows)?.cells else {
                throw PlaybackError(.corruptData, underlying: "unsupported pixel format \(frame.pointee.format)")
            }
            return cells
        }
    }

    /// Decodes the one frame of `data` and hands it to `body`.
    private static func withFrame<T>(
        _ data: Data, kind: ImageKind, maxPixels: Int, _ body: (UnsafeMutablePointer<AVFrame>) throws(PlaybackError) -> T
    ) throws(PlaybackError) -> T {
        guard !data.isEmpty, data.count < Int(Int32.max) - 64 else { throw PlaybackError(.corruptData, underlying: "empty image") }
        guard let codec = avcodec_find_decoder(kind == .png ? AV_CODEC_ID_PNG : AV_CODEC_ID_MJPEG) else {
            throw PlaybackError(.corruptData, underlying: "no \(kind.rawValue) decoder in this FFmpeg")
        }
        var contextSlot = avcodec_alloc_context3(codec)
        defer { avcodec_free_context(&contextSlot) }
        guard let context = contextSlot else { throw PlaybackError(.corruptData, underlying: "out of memory") }
        context.pointee.thread_count = 1
        context.pointee.max_pixels = Int64(maxPixels)
        guard avcodec_open2(context, codec, nil) >= 0 else { throw PlaybackError(.corruptData, underlying: "cannot open the \(kind.rawValue) decoder") }

        var packetSlot = av_packet_alloc()
        defer { av_packet_free(&packetSlot) }
        guard let packet = packetSlot else { throw PlaybackError(.corruptData, underlying: "out of memory") }
        // av_new_packet zeroes the input padding the decoders may read past the end.
        guard av_new_packet(packet, Int32(data.count)) >= 0, let target = packet.pointee.data else {
            throw PlaybackError(.corruptData, underlying: "out of memory")
        }
        data.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { target.update(from: base.assumingMemoryBound(to: UInt8.self), count: bytes.count) }
        }
        var frameSlot = av_frame_alloc()
        defer { av_frame_free(&frameSlot) }
        guard let frame = frameSlot else { throw PlaybackError(.corruptData, underlying: "out of memory") }

        let sent = avcodec_send_packet(context, packet)
        guard sent >= 0 else { throw PlaybackError(.corruptData, underlying: "\(kind.rawValue) decoder refused the image (\(sent))") }
        var received = avcodec_receive_frame(context, frame)
        if received == tonearm_averror_eagain() {
            _ = avcodec_send_packet(context, nil)  // drain: some decoders hold the frame until flushed
            received = avcodec_receive_frame(context, frame)
        }
        guard received >= 0 else { throw PlaybackError(.corruptData, underlying: "\(kind.rawValue) image did not decode (\(received))") }
        guard frame.pointee.width > 0, frame.pointee.height > 0 else { throw PlaybackError(.corruptData, underlying: "image without pixels") }
        return try body(frame)
    }

    // MARK: - Averaging

    private enum Flag {
        static let bigEndian: UInt64 = 1 << 0
        static let palette: UInt64 = 1 << 1
        static let bitstream: UInt64 = 1 << 2
        static let hardware: UInt64 = 1 << 3
        static let rgb: UInt64 = 1 << 5
        static let alpha: UInt64 = 1 << 7
        static let bayer: UInt64 = 1 << 8
        static let float: UInt64 = 1 << 9
    }

    /// Where one component lives (a copy of AVComponentDescriptor).
    private struct Component {
        var plane: Int, step: Int, offset: Int, shift: Int, depth: Int
    }

    /// The frame's average colour, or nil for a layout this reader does not know.
    static func averageColor(of frame: UnsafeMutablePointer<AVFrame>) -> RGBColor? {
        sample(frame, columns: 1, rows: 1)?.average
    }

    /// The frame's average colour and the averages of a `columns` x `rows` grid over it (row by
    /// row), or nil for a layout this reader does not know.
    static func sample(_ frame: UnsafeMutablePointer<AVFrame>, columns: Int, rows: Int) -> (average: RGBColor, cells: [RGBColor])? {
        let format = frame.pointee.format
        guard let descriptor = av_pix_fmt_desc_get(AVPixelFormat(rawValue: format)) else { return nil }
        let flags = descriptor.pointee.flags
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        let planes = withUnsafeBytes(of: frame.pointee.data) { Array($0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)) }
        let strides = withUnsafeBytes(of: frame.pointee.linesize) { Array($0.bindMemory(to: Int32.self)).map(Int.init) }
        // Enough samples that every grid cell gets some.
        let stepX = max(1, width / max(sampleGrid, columns)), stepY = max(1, height / max(sampleGrid, rows))
        var total = ColorAccumulator()
        var grid = Array(repeating: ColorAccumulator(), count: columns * rows)
        func add(_ x: Int, _ y: Int, red: Double, green: Double, blue: Double, alpha: Double = 1) {
            total.add(red: red, green: green, blue: blue, alpha: alpha)
            grid[(y * rows / height) * columns + x * columns / width].add(red: red, green: green, blue: blue, alpha: alpha)
        }
        func result() -> (average: RGBColor, cells: [RGBColor])? {
            guard let average = total.color else { return nil }
            return (average, grid.map { $0.color ?? average })
        }

        if flags & (Flag.hardware | Flag.bayer | Flag.float) != 0 { return nil }
        if format == AV_PIX_FMT_PAL8.rawValue {
            guard let indices = planes[0], let palette = planes[1] else { return nil }
            for y in stride(from: 0, to: height, by: stepY) {
                for x in stride(from: 0, to: width, by: stepX) {
                    // Palette entries are native-endian 0xAARRGGBB words.
                    let entry = UnsafeRawPointer(palette).load(fromByteOffset: Int(indices[y * strides[0] + x]) * 4, as: UInt32.self)
                    add(x, y,
                        red: Double(entry >> 16 & 0xFF) / 255, green: Double(entry >> 8 & 0xFF) / 255,
                        blue: Double(entry & 0xFF) / 255, alpha: Double(entry >> 24) / 255)
                }
            }
            return result()
        }
        if flags & Flag.bitstream != 0 {
            guard format == AV_PIX_FMT_MONOBLACK.rawValue || format == AV_PIX_FMT_MONOWHITE.rawValue, let bits = planes[0] else { return nil }
            let setIsWhite = format == AV_PIX_FMT_MONOBLACK.rawValue
            for y in stride(from: 0, to: height, by: stepY) {
                for x in stride(from: 0, to: width, by: stepX) {
                    let set = bits[y * strides[0] + x / 8] & (0x80 >> UInt8(x % 8)) != 0
                    let value: Double = set == setIsWhite ? 1 : 0
                    add(x, y, red: value, green: value, blue: value)
                }
            }
            return result()
        }

        let count = Int(descriptor.pointee.nb_components)
        let components: [Component] = withUnsafeBytes(of: descriptor.pointee.comp) {
            $0.bindMemory(to: AVComponentDescriptor.self).prefix(count).map {
                Component(plane: Int($0.plane), step: Int($0.step), offset: Int($0.offset), shift: Int($0.shift), depth: Int($0.depth))
            }
        }
        guard count >= 1, components.allSatisfy({ (1...16).contains($0.depth) && $0.step > 0 && planes[$0.plane] != nil }) else { return nil }
        let bigEndian = flags & Flag.bigEndian != 0
        let hasAlpha = flags & Flag.alpha != 0
        let chromaShiftX = Int(descriptor.pointee.log2_chroma_w), chromaShiftY = Int(descriptor.pointee.log2_chroma_h)
        let isRGB = flags & Flag.rgb != 0

        /// Component `index` at pixel (x, y), 0...1.
        func value(_ index: Int, _ x: Int, _ y: Int) -> Double {
            let component = components[index]
            // Chroma of YUV is subsampled; RGB, gray and alpha components are not.
            let subsampled = !isRGB && count >= 3 && (index == 1 || index == 2)
            let px = subsampled ? x >> chromaShiftX : x, py = subsampled ? y >> chromaShiftY : y
            let base = planes[component.plane]!  // checked non-nil above
            let at = py * strides[component.plane] + px * component.step + component.offset
            let raw: Int
            if component.depth + component.shift > 8 {
                let high = Int(base[at + (bigEndian ? 0 : 1)]), low = Int(base[at + (bigEndian ? 1 : 0)])
                raw = high << 8 | low
            } else {
                raw = Int(base[at])
            }
            let maximum = (1 << component.depth) - 1
            return Double((raw >> component.shift) & maximum) / Double(maximum)
        }

        let fullRange = frame.pointee.color_range == AVCOL_RANGE_JPEG || [
            AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUVJ411P,
        ].contains { $0.rawValue == format }
        let bt709 = frame.pointee.colorspace == AVCOL_SPC_BT709
        let (kr, kb) = bt709 ? (0.2126, 0.0722) : (0.299, 0.114)
        let kg = 1 - kr - kb

        for y in stride(from: 0, to: height, by: stepY) {
            for x in stride(from: 0, to: width, by: stepX) {
                if isRGB {
                    guard count >= 3 else { return nil }
                    add(x, y, red: value(0, x, y), green: value(1, x, y), blue: value(2, x, y), alpha: hasAlpha && count >= 4 ? value(3, x, y) : 1)
                } else if count <= 2 {
                    // Gray, optionally with alpha (PNG's gray is full range; MJPEG tags its range).
                    var luma = value(0, x, y)
                    if frame.pointee.color_range == AVCOL_RANGE_MPEG { luma = (luma * 255 - 16) / 219 }
                    add(x, y, red: luma, green: luma, blue: luma, alpha: hasAlpha && count == 2 ? value(1, x, y) : 1)
                } else {
                    var luma = value(0, x, y), cb = value(1, x, y) - 0.5, cr = value(2, x, y) - 0.5
                    if !fullRange {
                        luma = (luma * 255 - 16) / 219
                        cb = (cb * 255) / 224
                        cr = (cr * 255) / 224
                    }
                    let red = luma + 2 * (1 - kr) * cr
                    let blue = luma + 2 * (1 - kb) * cb
                    let green = (luma - kr * red - kb * blue) / kg
                    add(x, y,
                        red: min(1, max(0, red)), green: min(1, max(0, green)), blue: min(1, max(0, blue)),
                        alpha: hasAlpha && count >= 4 ? value(3, x, y) : 1)
                }
            }
        }
        return result()
    }
}
