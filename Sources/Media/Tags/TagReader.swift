import CFFmpeg
import Foundation
import PlayerCore

/// Reads a local song's tags and audio properties with FFmpeg's demuxers: ID3v2.3/2.4 (and ID3v1)
/// in MP3, Vorbis comments in FLAC, Ogg Vorbis and Opus, APEv2, and MP4/M4A atoms, mapped to
/// `SongTag`s by `TagNormalisation`. The file is only probed (`ProbedFile`): headers and tags read,
/// the first packets at most looked at for parameters the header lacks; its audio is never decoded
/// for playback. Cheap enough to run over a whole library when it is indexed.
///
/// Multiple values: repeated Vorbis comments become several values (FFmpeg joins them with ";",
/// split again for list tags); an ID3v2 frame's NUL-separated values too (FFmpeg 5.1 keeps only
/// the first, so `ID3v2TextFrames` reads the lists of list tags itself); an ID3v2.3 list joined
/// with "/" is kept as one value, as MPD keeps it.
package enum TagReader {
    /// The tags of the file at `url`. Errors: `.fileNotFound` and `.permissionDenied` from the
    /// kernel; `.unsupportedFormat` for an empty file, one that is no known container, or one
    /// without an audio stream.
    package static func read(_ url: URL) throws(PlaybackError) -> SongTags {
        let file = try ProbedFile.open(url, analysingStreams: true)
        guard let index = file.audioStreamIndex, let stream = file.stream(index) else {
            throw PlaybackError(.unsupportedFormat, underlying: "no audio stream")
        }
        // Ogg keeps its comments on the stream, the other containers on the file: both are read,
        // the file's first.
        let entries = TagNormalisation.entries(of: file.format.pointee.metadata) + TagNormalisation.entries(of: stream.pointee.metadata)
        let container = file.containerName
        let vorbisComments = container == "ogg" || container == "flac"
        var values = TagNormalisation.values(from: entries, splitsJoinedLists: vorbisComments)
        TagNormalisation.takeLists(from: ID3v2TextFrames.read(url), into: &values)
        return SongTags(
            values: values,
            audio: audioProperties(of: stream, in: file.format),
            hasEmbeddedPicture: CoverArt.pictureStreams(in: file).isEmpty == false)
    }

    /// What the stream and its container state about the encoding.
    static func audioProperties(of stream: UnsafeMutablePointer<AVStream>, in format: UnsafeMutablePointer<AVFormatContext>)
        -> AudioProperties
    {
        let parameters = stream.pointee.codecpar.pointee
        var audio = AudioProperties()
        let nothing = tonearm_av_nopts_value()
        if format.pointee.duration != nothing, format.pointee.duration > 0 {
            audio.duration = Double(format.pointee.duration) / Double(AV_TIME_BASE)
        } else if stream.pointee.duration != nothing, stream.pointee.duration > 0, stream.pointee.time_base.den > 0 {
            audio.duration = Double(stream.pointee.duration) * av_q2d(stream.pointee.time_base)
        }
        if let duration = audio.duration, !duration.isFinite || duration <= 0 { audio.duration = nil }
        audio.sampleRate = parameters.sample_rate > 0 ? Int(parameters.sample_rate) : nil
        audio.channels = parameters.ch_layout.nb_channels > 0 ? Int(parameters.ch_layout.nb_channels) : nil
        audio.codec = avcodec_descriptor_get(parameters.codec_id)?.pointee.name.map { String(cString: $0) }
        audio.bitsPerSample = bits(of: parameters)
        let rate = parameters.bit_rate > 0 ? parameters.bit_rate : format.pointee.bit_rate
        audio.bitrate = rate > 0 ? Int((rate + 500) / 1_000) : nil
        return audio
    }

    /// Bits per sample of the source: 0 for lossy-only codecs and floating-point samples (MPD's "f"),
    /// the codec's raw sample size where stated, else the sample format's; nil when unknown.
    static func bits(of parameters: AVCodecParameters) -> Int? {
        // Lossy only (mp3, aac, vorbis): no bit depth. A codec that can be either (WavPack) has one.
        if let descriptor = avcodec_descriptor_get(parameters.codec_id),
            descriptor.pointee.props & AV_CODEC_PROP_LOSSY != 0, descriptor.pointee.props & AV_CODEC_PROP_LOSSLESS == 0
        {
            return 0
        }
        if parameters.bits_per_raw_sample > 0 { return Int(parameters.bits_per_raw_sample) }
        guard parameters.format >= 0 else { return nil }
        let sampleFormat = AVSampleFormat(rawValue: parameters.format)
        let floating = [AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_FLTP, AV_SAMPLE_FMT_DBL, AV_SAMPLE_FMT_DBLP]
        if floating.contains(sampleFormat) { return 0 }
        let bytes = av_get_bytes_per_sample(sampleFormat)
        return bytes > 0 ? Int(bytes) * 8 : nil
    }
}
