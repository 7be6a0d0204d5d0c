import CEbur128
import Foundation
import Media

/// EBU R128 loudness of interleaved stereo float audio, through libebur128 (the reference
/// implementation; FFmpeg's ebur128 filter follows the same recommendation). Integrated loudness
/// for a whole track, short-term loudness (the last 3 s) for adaptive levelling.
///
/// `@unchecked Sendable`: one thread at a time uses a meter (a file's part, a deck's render
/// thread); the parts of a file hand theirs back only when done.
final class LoudnessMeter: @unchecked Sendable {
    enum Measure {
        /// Integrated loudness only (measuring a file).
        case integrated
        /// Short-term loudness, and integrated loudness of everything added (a deck's meter).
        case shortTermAndIntegrated

        fileprivate var mode: Int32 {
            switch self {
            case .integrated: Int32(EBUR128_MODE_I.rawValue)
            case .shortTermAndIntegrated: Int32(EBUR128_MODE_S.rawValue | EBUR128_MODE_I.rawValue)
            }
        }
    }

    /// Nil only when libebur128 cannot allocate its state.
    fileprivate var state: UnsafeMutablePointer<ebur128_state>?
    /// Frames added so far.
    private(set) var frames: Int64 = 0

    /// What the samples added are.
    enum Channels {
        /// Interleaved left and right (the engine's format).
        case stereo
        /// One channel heard on both speakers: BS.1770 counts it twice, as the stereo it plays as.
        case dualMono
    }

    init(measure: Measure, sampleRate: Int = AudioFormat.sampleRate, channels: Channels = .stereo) {
        state = ebur128_init(channels == .stereo ? 2 : 1, UInt(sampleRate), measure.mode)
        if channels == .dualMono, let state { ebur128_set_channel(state, 0, Int32(EBUR128_DUAL_MONO.rawValue)) }
    }

    deinit { ebur128_destroy(&state) }

    func add(_ samples: UnsafePointer<Float>, frames count: Int) {
        guard let state, count > 0 else { return }
        ebur128_add_frames_float(state, samples, count)
        frames += Int64(count)
    }

    /// Integrated loudness, LUFS; nil before 400 ms or for silence (-inf).
    var integrated: Double? {
        guard let state else { return nil }
        var value = -Double.infinity
        guard ebur128_loudness_global(state, &value) == EBUR128_SUCCESS.rawValue, value.isFinite else { return nil }
        return value
    }

    /// Loudness of the last 400 ms, LUFS; nil for silence.
    var momentary: Double? {
        guard let state else { return nil }
        var value = -Double.infinity
        guard ebur128_loudness_momentary(state, &value) == EBUR128_SUCCESS.rawValue, value.isFinite else { return nil }
        return value
    }

    /// Loudness of the last 3 s, LUFS; nil for silence or before enough audio.
    var shortTerm: Double? {
        guard let state else { return nil }
        var value = -Double.infinity
        guard ebur128_loudness_shortterm(state, &value) == EBUR128_SUCCESS.rawValue, value.isFinite else { return nil }
        return value
    }

    /// Integrated loudness of several meters' audio taken as one (a file measured in parts):
    /// libebur128 gates all their blocks together, exactly as one meter would have.
    static func integrated(of meters: [LoudnessMeter]) -> Double? {
        var states = meters.compactMap(\.state).map { Optional($0) }
        guard states.count == meters.count, !states.isEmpty else { return nil }
        var value = -Double.infinity
        let status = states.withUnsafeMutableBufferPointer { ebur128_loudness_global_multiple($0.baseAddress, $0.count, &value) }
        guard status == EBUR128_SUCCESS.rawValue, value.isFinite else { return nil }
        return value
    }
}
