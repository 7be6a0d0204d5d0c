import CFFmpeg
import Foundation

/// Converts decoded frames with libswresample to what `FFmpegDecoder.read` gives: the internal
/// format (48 kHz, Float32, stereo, interleaved), or a file's own rate and channels while it is
/// measured. Mono goes to both channels at full level; more than two channels are downmixed with
/// FFmpeg's standard matrix.
///
/// It also keeps the output's timeline: the frames produced since the start (or since a seek's
/// target), so that frames past an exact end are dropped (see `endFrame`).
final class FFmpegResampler {
    /// Frames per second of the output.
    let outputRate: Int
    /// Interleaved channels of the output.
    let channels: Int

    /// The libswresample context; built on the first frame, freed with the resampler.
    private var context: OpaquePointer?
    /// The input parameters `context` was built for; a change mid-stream (chained Ogg, an mp3
    /// that switches rate) rebuilds it after draining the old one.
    private var inputRate: Int32 = 0
    private var inputFormat: Int32 = -1
    private var inputLayout = AVChannelLayout()

    /// Converted frames that did not fit the caller's buffer. A decoded packet holds whatever the
    /// codec's frame size is (1152 samples for mp3, up to 4608 for FLAC) while the caller asks
    /// for its own period, and libswresample cannot be asked to hold converted output back
    /// without flushing; so a frame that would overflow is converted here and handed out over
    /// the next calls. Frames that fit go straight into the caller's buffer.
    private var leftover: UnsafeMutablePointer<Float>?
    private var leftoverCapacity = 0
    private var leftoverStart = 0
    private var leftoverCount = 0

    /// Frames produced so far on the output timeline (after a seek: from the seek target).
    private var producedFrames: Int64 = 0
    /// Where the audio ends on the output timeline when the container says so exactly (MP4's
    /// edit list). FFmpeg 5.1 trims an AAC encoder's priming from the start but not its padding
    /// at the end (up to 1024 samples of near-silence), which would put a gap into gapless
    /// playback; frames past this end are dropped.
    private let endFrame: Int64?

    init(outputRate: Int, channels: Int, endSeconds: Double?) {
        self.outputRate = outputRate
        self.channels = channels
        endFrame = endSeconds.map { Int64(($0 * Double(outputRate)).rounded()) }
    }

    deinit {
        swr_free(&context)
        av_channel_layout_uninit(&inputLayout)
        leftover?.deallocate()
    }

    /// Converted frames wait from an earlier frame.
    var hasLeftover: Bool { leftoverCount > 0 }

    /// Readies the converter for `frame`'s parameters; false for a frame with no usable rate,
    /// format or channels.
    func prepare(for frame: UnsafeMutablePointer<AVFrame>) -> Bool {
        converter(for: frame) != nil
    }

    /// Converts `frame` (after `prepare(for:)`) into `destination` when the result surely fits,
    /// otherwise into the leftovers; returns frames written to `destination`.
    func convert(_ frame: UnsafeMutablePointer<AVFrame>, into destination: UnsafeMutablePointer<Float>, space: Int) -> Int {
        guard let context else { return 0 }
        let inputCount = frame.pointee.nb_samples
        let bound = Int(swr_get_out_samples(context, inputCount))  // an upper bound
        let planes = tonearm_frame_planes(frame)
        if leftoverCount == 0, bound >= 0, bound <= space {
            let converted = tonearm_swr_convert_packed(context, destination, Int32(space), planes, inputCount)
            return keep(max(0, Int(converted)))
        }
        appendConverted(context, planes, inputCount, capacity: max(bound, 0) + 256)
        return takeLeftover(into: destination, maxFrames: space)
    }

    /// Flushes the converter's delayed output into the leftovers (end of stream, format change),
    /// so its last filter taps reach the caller.
    func drain() {
        guard let context else { return }
        // Each flush call emits at most `capacity` frames and returns 0 when empty.
        for _ in 0..<64 {
            let capacity = max(Int(swr_get_out_samples(context, 0)), 0) + 1024
            if appendConverted(context, nil, 0, capacity: capacity) <= 0 { break }
        }
    }

    /// After a seek: nothing converted before it may leak out after it (the filter history, the
    /// leftovers), and the timeline goes on from `frame`, the target's.
    func restart(atFrame frame: Int64) {
        reset()
        leftoverStart = 0
        leftoverCount = 0
        producedFrames = frame
    }

    /// Hands out up to `maxFrames` leftover frames; returns how many.
    func takeLeftover(into destination: UnsafeMutablePointer<Float>, maxFrames: Int) -> Int {
        let count = min(leftoverCount, maxFrames)
        guard count > 0, let base = leftover else { return 0 }
        destination.update(from: base + leftoverStart * channels, count: count * channels)
        leftoverStart += count
        leftoverCount -= count
        if leftoverCount == 0 { leftoverStart = 0 }
        return count
    }

    // MARK: - The converter

    /// The converter for `frame`'s parameters, built on the first frame and rebuilt when they
    /// change. The parameters come from the decoded frame, not the stream header, because only
    /// the frame is authoritative (decoders may pick their output format when opened).
    private func converter(for frame: UnsafeMutablePointer<AVFrame>) -> OpaquePointer? {
        let rate = frame.pointee.sample_rate
        let format = frame.pointee.format
        if let existing = context, rate == inputRate, format == inputFormat,
            av_channel_layout_compare(&inputLayout, &frame.pointee.ch_layout) == 0
        {
            return existing
        }
        if context != nil {
            drain()  // keep the old parameters' tail
            reset()
        }
        var layout = AVChannelLayout()
        defer { av_channel_layout_uninit(&layout) }
        let channelCount = frame.pointee.ch_layout.nb_channels
        guard rate > 0, format >= 0, channelCount > 0 else { return nil }
        if frame.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC {
            av_channel_layout_default(&layout, channelCount)  // e.g. a WAV with no channel mask
        } else if av_channel_layout_copy(&layout, &frame.pointee.ch_layout) < 0 {
            return nil
        }
        var outputLayout = AVChannelLayout()
        av_channel_layout_default(&outputLayout, Int32(channels))
        var made: OpaquePointer?
        guard
            swr_alloc_set_opts2(
                &made, &outputLayout, AV_SAMPLE_FMT_FLT, Int32(outputRate),
                &layout, AVSampleFormat(rawValue: format), rate, 0, nil) >= 0,
            made != nil
        else { return nil }
        if channelCount == 1 && channels == 2 {
            // FFmpeg's default puts mono at -3 dB on each side (equal power for a centred source);
            // a player should play mono at the level it was mastered, on both speakers.
            let matrix: [Double] = [1, 1]
            swr_set_matrix(made, matrix, 1)
        }
        guard swr_init(made) >= 0 else {
            swr_free(&made)
            return nil
        }
        context = made
        inputRate = rate
        inputFormat = format
        av_channel_layout_uninit(&inputLayout)
        _ = av_channel_layout_copy(&inputLayout, &frame.pointee.ch_layout)
        return made
    }

    private func reset() {
        swr_free(&context)
        inputRate = 0
        inputFormat = -1
        av_channel_layout_uninit(&inputLayout)
    }

    // MARK: - Leftovers and the timeline

    /// Converts into the end of the leftovers.
    @discardableResult
    private func appendConverted(
        _ context: OpaquePointer, _ planes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, _ inputCount: Int32,
        capacity: Int
    ) -> Int {
        reserveLeftover(frames: capacity)
        guard let base = leftover else { return 0 }
        let end = base + (leftoverStart + leftoverCount) * channels
        let converted = Int(tonearm_swr_convert_packed(context, end, Int32(capacity), planes, inputCount))
        guard converted > 0 else { return 0 }
        leftoverCount += keep(converted)
        return converted
    }

    /// Counts `frames` just produced and returns how many of them lie before `endFrame`.
    private func keep(_ frames: Int) -> Int {
        var kept = frames
        if let endFrame { kept = Int(max(0, min(Int64(frames), endFrame - producedFrames))) }
        producedFrames += Int64(frames)
        return kept
    }

    /// Makes room for `frames` more frames after the current leftovers.
    private func reserveLeftover(frames: Int) {
        if leftoverCount == 0 { leftoverStart = 0 }
        if leftoverStart + leftoverCount + frames <= leftoverCapacity { return }
        if let base = leftover, leftoverStart > 0 {
            let bytes = leftoverCount * channels * MemoryLayout<Float>.size
            memmove(base, base + leftoverStart * channels, bytes)
            leftoverStart = 0
        }
        let needed = leftoverCount + frames
        guard needed > leftoverCapacity else { return }
        let capacity = max(needed, leftoverCapacity * 2, 8192)
        let grown = UnsafeMutablePointer<Float>.allocate(capacity: capacity * channels)
        if let base = leftover {
            grown.update(from: base, count: leftoverCount * channels)
            base.deallocate()
        }
        leftover = grown
        leftoverCapacity = capacity
    }
}
