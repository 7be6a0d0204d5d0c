import CFFmpeg
import Foundation
import PlayerCore

/// A decoded picture's facts: its size and its average colour. The bitmap itself is dropped at
/// once; front ends decode the bytes again at the size they draw.
package struct DecodedImage: Sendable, Equatable {
    package let kind: ImageKind
    package let width: Int
    package let height: Int
    package let averageColor: RGBColor

    package init(kind: ImageKind, width: Int, height: Int, averageColor: RGBColor) {
        self.kind = kind
        self.width = width
        self.height = height
        self.averageColor = averageColor
    }
}

/// Decodes a PNG or a JPEG with the FFmpeg libraries the program already links (libavcodec's
/// `png` and `mjpeg` decoders: one packet in, one frame out) and averages its colour.
///
/// Whatever pixel format the decoder hands back (packed or planar RGB, gray, palette, 1-bit, YUV
/// of any subsampling, 8 or 16 bits, with or without alpha) is converted to 8-bit RGBA by
/// libswscale, which reads only the formats it declares as inputs; anything else is refused as
/// `corruptData`. YUV is converted with the frame's matrix (BT.601 when untagged) and range (full
/// for JPEG's `J` formats and frames tagged so); gray is full range unless tagged limited.
///
/// Large pictures are sampled on a grid of at most `sampleGrid` x `sampleGrid` points (libswscale's
/// nearest-point scaling): an average colour does not need all of a 4000 x 4000 cover, and the
/// converted bitmap stays small whatever the picture's size. `maxPixels` bounds what the decoder
/// allocates (a 100-byte PNG can claim to be 60000 x 60000).
package enum ImageDecoder {
    /// Points per axis the average is computed over, at most.
    static let sampleGrid = 256

    /// - Throws: `corruptData` when the bytes do not decode (garbage, truncation, a picture over
    ///   `maxPixels`, a pixel format libswscale cannot read), never crashes on any input.
    package static func decode(_ data: Data, kind: ImageKind, maxPixels: Int = MediaLimits.maxImagePixels) throws(PlaybackError) -> DecodedImage {
        try withFrame(data, kind: kind, maxPixels: maxPixels) { frame throws(PlaybackError) in
            let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
            let color = try sample(frame, columns: 1, rows: 1).average
            return DecodedImage(kind: kind, width: width, height: height, averageColor: color)
        }
    }

    /// The picture as `columns` x `rows` colours, row by row, each the average of the picture's
    /// part under it: what a terminal draws with half blocks (two rows of cells per character).
    ///
    /// - Throws: as `decode`.
    package static func thumbnail(
        _ data: Data, kind: ImageKind, columns: Int, rows: Int, maxPixels: Int = MediaLimits.maxImagePixels
    ) throws(PlaybackError) -> [RGBColor] {
        guard columns > 0, rows > 0 else { return [] }
        return try withFrame(data, kind: kind, maxPixels: maxPixels) { frame throws(PlaybackError) in
            try sample(frame, columns: columns, rows: rows).cells
        }
    }

    /// Decodes the one frame of `data` and hands it to `body`.
    private static func withFrame<T>(
        _ data: Data, kind: ImageKind, maxPixels: Int, _ body: (UnsafeMutablePointer<AVFrame>) throws(PlaybackError) -> T
    ) throws(PlaybackError) -> T {
        try FFmpegLibraries.load()
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
        if received == FFmpegError.again {
            _ = avcodec_send_packet(context, nil)  // drain: some decoders hold the frame until flushed
            received = avcodec_receive_frame(context, frame)
        }
        guard received >= 0 else { throw PlaybackError(.corruptData, underlying: "\(kind.rawValue) image did not decode (\(received))") }
        guard frame.pointee.width > 0, frame.pointee.height > 0 else { throw PlaybackError(.corruptData, underlying: "image without pixels") }
        return try body(frame)
    }

    // MARK: - Averaging

    /// The frame's average colour and the averages of a `columns` x `rows` grid over it (row by
    /// row), from the frame converted to RGBA on the sampling grid.
    static func sample(_ frame: UnsafeMutablePointer<AVFrame>, columns: Int, rows: Int) throws(PlaybackError) -> (average: RGBColor, cells: [RGBColor]) {
        // Enough points that every grid cell gets some; never more than the picture has.
        let width = min(Int(frame.pointee.width), max(sampleGrid, columns))
        let height = min(Int(frame.pointee.height), max(sampleGrid, rows))
        let rgba = try convertToRGBA(frame, width: width, height: height)
        var owned: UnsafeMutablePointer<AVFrame>? = rgba
        defer { av_frame_free(&owned) }
        guard let pixels = rgba.pointee.data.0 else { throw PlaybackError(.corruptData, underlying: "no converted pixels") }
        let stride = Int(rgba.pointee.linesize.0)
        var total = ColorAccumulator()
        var grid = Array(repeating: ColorAccumulator(), count: columns * rows)
        for y in 0..<height {
            let row = pixels + y * stride
            let cellRow = (y * rows / height) * columns
            for x in 0..<width {
                let pixel = row + 4 * x
                let red = Double(pixel[0]) / 255, green = Double(pixel[1]) / 255, blue = Double(pixel[2]) / 255
                let alpha = Double(pixel[3]) / 255
                total.add(red: red, green: green, blue: blue, alpha: alpha)
                grid[cellRow + x * columns / width].add(red: red, green: green, blue: blue, alpha: alpha)
            }
        }
        guard let average = total.color else { throw PlaybackError(.corruptData, underlying: "image without pixels") }
        return (average, grid.map { $0.color ?? average })
    }

    /// `frame` scaled to `width` x `height` (nearest point; the same size converts without
    /// scaling) as 8-bit RGBA, in a new frame the caller frees.
    private static func convertToRGBA(
        _ frame: UnsafeMutablePointer<AVFrame>, width: Int, height: Int
    ) throws(PlaybackError) -> UnsafeMutablePointer<AVFrame> {
        let decoded = frame.pointee.format
        guard sws_isSupportedInput(AVPixelFormat(rawValue: decoded)) > 0 else {
            throw PlaybackError(.corruptData, underlying: "unsupported pixel format \(decoded)")
        }
        let (format, jpegRange) = withoutJPEGRange(AVPixelFormat(rawValue: decoded))
        let flags = SWS_POINT | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT | SWS_FULL_CHR_H_INP
        guard
            let scaler = sws_getContext(
                frame.pointee.width, frame.pointee.height, format, Int32(width), Int32(height), AV_PIX_FMT_RGBA,
                flags, nil, nil, nil)
        else { throw PlaybackError(.corruptData, underlying: "libswscale cannot convert pixel format \(decoded)") }
        defer { sws_freeContext(scaler) }
        if let descriptor = av_pix_fmt_desc_get(format), isLumaChroma(descriptor) {
            try setColorDetails(scaler, of: frame, fullRange: jpegRange)
        }

        var converted = av_frame_alloc()
        guard let target = converted else { throw PlaybackError(.corruptData, underlying: "out of memory") }
        target.pointee.format = AV_PIX_FMT_RGBA.rawValue
        target.pointee.width = Int32(width)
        target.pointee.height = Int32(height)
        guard av_frame_get_buffer(target, 0) >= 0 else {
            av_frame_free(&converted)
            throw PlaybackError(.corruptData, underlying: "out of memory")
        }
        let status = sws_scale_frame(scaler, target, frame)
        guard status >= 0 else {
            av_frame_free(&converted)
            throw PlaybackError(.corruptData, underlying: "libswscale could not convert the picture (\(status))")
        }
        return target
    }

    /// YUV and gray layouts: the ones whose conversion to RGB depends on a matrix and a range
    /// (not RGB, palette or 1-bit layouts).
    private static func isLumaChroma(_ descriptor: UnsafePointer<AVPixFmtDescriptor>) -> Bool {
        let flags = descriptor.pointee.flags
        let bitstream = UInt64(AV_PIX_FMT_FLAG_BITSTREAM), palette = UInt64(AV_PIX_FMT_FLAG_PAL), rgb = UInt64(AV_PIX_FMT_FLAG_RGB)
        return flags & (bitstream | palette | rgb) == 0
    }

    /// The `J` (full-range JPEG) YUV formats as their plain layouts and whether the range was
    /// full: libswscale reads the range from its settings, and warns about the `J` names.
    private static func withoutJPEGRange(_ format: AVPixelFormat) -> (AVPixelFormat, fullRange: Bool) {
        switch format {
        case AV_PIX_FMT_YUVJ420P: (AV_PIX_FMT_YUV420P, true)
        case AV_PIX_FMT_YUVJ422P: (AV_PIX_FMT_YUV422P, true)
        case AV_PIX_FMT_YUVJ444P: (AV_PIX_FMT_YUV444P, true)
        case AV_PIX_FMT_YUVJ440P: (AV_PIX_FMT_YUV440P, true)
        case AV_PIX_FMT_YUVJ411P: (AV_PIX_FMT_YUV411P, true)
        default: (format, false)
        }
    }

    /// Tells libswscale the frame's YUV matrix and range. The matrix is the frame's tag, BT.601
    /// when it has none; the range is full for the `J` formats and frames tagged full, and for
    /// gray unless it is tagged limited (PNG's gray is full range; MJPEG tags its range).
    private static func setColorDetails(
        _ scaler: OpaquePointer, of frame: UnsafeMutablePointer<AVFrame>, fullRange jpegRange: Bool
    ) throws(PlaybackError) {
        let range = frame.pointee.color_range
        let isGray = (av_pix_fmt_desc_get(AVPixelFormat(rawValue: frame.pointee.format))?.pointee.nb_components ?? 0) <= 2
        let fullRange = jpegRange || range == AVCOL_RANGE_JPEG || (isGray && range != AVCOL_RANGE_MPEG)
        let tagged = frame.pointee.colorspace
        let matrix = tagged == AVCOL_SPC_RGB || tagged == AVCOL_SPC_UNSPECIFIED ? SWS_CS_DEFAULT : Int32(tagged.rawValue)
        let status = sws_setColorspaceDetails(
            scaler, sws_getCoefficients(matrix), fullRange ? 1 : 0, sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16)
        guard status >= 0 else { throw PlaybackError(.corruptData, underlying: "libswscale refused the colour details (\(status))") }
    }
}
