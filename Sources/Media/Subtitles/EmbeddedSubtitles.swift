import CFFmpeg
import Foundation
import PlayerCore

/// A local file's own text subtitle track (a Matroska SRT or ASS track, an MP4's timed text, a
/// WebVTT track) as a transcript, so a recording that carries its words plays with them.
///
/// FFmpeg's text subtitle decoders do the format work: every one of them gives each cue as an ASS
/// event line, so one small reader (`assEvent`) covers them all, and the ASS `Name` field (who
/// speaks, in the files that say) becomes the cue's speaker. The first text track is read; a
/// bitmap track (DVD, PGS) has no words to read and is skipped.
///
/// The file is the listener's, but its bytes may come from anywhere: every cue goes through
/// `Transcript`'s bounds (count, length, sanitising), and reading stops after `maxPackets`.
package enum EmbeddedSubtitles {
    /// Packets of the subtitle track read at most: a few hours of speech is a few thousand; a
    /// hostile file could hold millions.
    package static let maxPackets = 50_000

    /// The first text subtitle track of the file at `url` as a transcript; nil when the file has
    /// none, cannot be opened, or its track holds no cue with words.
    package static func transcript(of url: URL) -> Transcript? {
        guard url.isFileURL else { return nil }
        guard (try? FFmpegLibraries.load()) != nil else { return nil }
        let handles = FFmpegHandles()
        let path = url.withUnsafeFileSystemRepresentation { $0.map { String(cString: $0) } } ?? ""
        // "file:" keeps a path with a colon from being read as another protocol.
        guard avformat_open_input(&handles.format, "file:" + path, nil, nil) >= 0, let format = handles.format else { return nil }
        _ = avformat_find_stream_info(format, nil)
        guard let (index, timeBase) = openTextTrack(of: format, into: handles), let codec = handles.codec else { return nil }
        handles.packet = av_packet_alloc()
        guard let packet = handles.packet else { return nil }

        var cues: [TranscriptCue] = []
        var packets = 0
        while packets < maxPackets, cues.count < Transcript.maxCues, av_read_frame(format, packet) >= 0 {
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == index else { continue }
            packets += 1
            cues += decode(packet, with: codec, timeBase: timeBase)
        }
        return cues.isEmpty ? nil : Transcript(cues: cues)
    }

    /// Opens the decoder of the first text subtitle stream and leaves every other stream
    /// undemuxed; its index and time base, or nil when there is none or it cannot be opened.
    private static func openTextTrack(
        of format: UnsafeMutablePointer<AVFormatContext>, into handles: FFmpegHandles
    ) -> (Int32, AVRational)? {
        var chosen: Int32?
        for index in 0..<Int(format.pointee.nb_streams) {
            guard let stream = format.pointee.streams[index], let parameters = stream.pointee.codecpar else { continue }
            let isText =
                parameters.pointee.codec_type == AVMEDIA_TYPE_SUBTITLE
                && (avcodec_descriptor_get(parameters.pointee.codec_id)?.pointee.props ?? 0) & AV_CODEC_PROP_TEXT_SUB != 0
            if chosen == nil, isText {
                chosen = Int32(index)
            } else {
                stream.pointee.discard = AVDISCARD_ALL
            }
        }
        guard let chosen, let stream = format.pointee.streams[Int(chosen)], let parameters = stream.pointee.codecpar,
            let decoder = avcodec_find_decoder(parameters.pointee.codec_id)
        else { return nil }
        handles.codec = avcodec_alloc_context3(decoder)
        guard let codec = handles.codec, avcodec_parameters_to_context(codec, parameters) >= 0 else { return nil }
        codec.pointee.pkt_timebase = stream.pointee.time_base
        guard avcodec_open2(codec, decoder, nil) >= 0 else { return nil }
        return (chosen, stream.pointee.time_base)
    }

    /// The cues of one packet: its text rectangles, timed by the packet (the display times are
    /// offsets from it, in milliseconds).
    private static func decode(
        _ packet: UnsafeMutablePointer<AVPacket>, with codec: UnsafeMutablePointer<AVCodecContext>, timeBase: AVRational
    ) -> [TranscriptCue] {
        guard packet.pointee.pts != tonearm_av_nopts_value(), timeBase.den > 0 else { return [] }
        var subtitle = AVSubtitle()
        var got: Int32 = 0
        guard avcodec_decode_subtitle2(codec, &subtitle, &got, packet) >= 0, got != 0 else { return [] }
        defer { avsubtitle_free(&subtitle) }
        let base = Double(packet.pointee.pts) * av_q2d(timeBase)
        let start = base + Double(subtitle.start_display_time) / 1000
        let end: Double
        if packet.pointee.duration > 0 {
            end = base + Double(packet.pointee.duration) * av_q2d(timeBase)
        } else if subtitle.end_display_time != 0, subtitle.end_display_time != UInt32.max {
            end = base + Double(subtitle.end_display_time) / 1000
        } else {
            end = start
        }
        var cues: [TranscriptCue] = []
        for index in 0..<Int(subtitle.num_rects) {
            guard let rect = subtitle.rects[index] else { continue }
            let line: (speaker: String?, text: String)?
            if let ass = rect.pointee.ass {
                line = assEvent(String(cString: ass))
            } else if let text = rect.pointee.text {
                line = (nil, String(cString: text))
            } else {
                line = nil
            }
            if let line, let cue = TranscriptCue(start: start, end: end, text: line.text, speaker: line.speaker) { cues.append(cue) }
        }
        return cues
    }

    /// One ASS event as FFmpeg's decoders write it (`ReadOrder,Layer,Style,Name,MarginL,MarginR,
    /// MarginV,Effect,Text`, the text itself free to hold commas): who speaks (the `Name`, nil
    /// when empty) and what is said, as plain text. Nil for a line with fewer fields.
    package static func assEvent(_ line: String) -> (speaker: String?, text: String)? {
        let fields = line.split(separator: ",", maxSplits: 8, omittingEmptySubsequences: false)
        guard fields.count == 9 else { return nil }
        let name = fields[3].trimmingCharacters(in: .whitespaces)
        return (name.isEmpty ? nil : name, plainText(String(fields[8])))
    }

    /// ASS text without its markup: override blocks (`{\i1}`, `{\pos(10,20)}`) removed, the hard
    /// and soft line breaks (`\N`, `\n`) and the hard space (`\h`) made spaces.
    package static func plainText(_ ass: String) -> String {
        var output = ""
        var inOverride = false
        var escaped = false
        for character in ass {
            if inOverride {
                if character == "}" { inOverride = false }
                continue
            }
            if escaped {
                escaped = false
                if character == "N" || character == "n" || character == "h" {
                    output.append(" ")
                    continue
                }
                output.append("\\")
            }
            switch character {
            case "{": inOverride = true
            case "\\": escaped = true
            default: output.append(character)
            }
        }
        if escaped { output.append("\\") }
        return output
    }
}
