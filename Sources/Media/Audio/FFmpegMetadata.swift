import CFFmpeg
import Foundation
import PlayerCore

/// What an opened input says about itself besides its audio: its tags and its chapters. Both are
/// untrusted text from a file or a server, so both are bounded here.
enum FFmpegMetadata {
    /// Entries of an FFmpeg dictionary, bounded (a file's metadata is untrusted).
    static func tags(in dictionary: OpaquePointer?) -> [String: String] {
        var tags: [String: String] = [:]
        var entry: UnsafeMutablePointer<AVDictionaryEntry>?
        while tags.count < MediaLimits.maxTags, let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
            entry = next
            guard let key = next.pointee.key, let value = next.pointee.value, strnlen(key, 65) <= 64, strnlen(value, 1025) <= 1024
            else { continue }
            tags[String(cString: key)] = String(cString: value)
        }
        return tags
    }

    /// The container's chapters in seconds. A file is untrusted: at most `ChapterList.maxCount`
    /// are read, a zero or negative time base or a non-finite time drops the chapter, a negative
    /// start is clamped to 0, and titles are cut at a tag's bound. Times are taken as the
    /// container states them, not moved by the stream's start time: that start is an encoder's
    /// delay (an mp3's LAME priming), which the decoder trims, so chapter times written against
    /// the original audio already match the positions the decoder reports.
    static func chapters(of format: UnsafeMutablePointer<AVFormatContext>) -> [Chapter] {
        let count = min(Int(format.pointee.nb_chapters), ChapterList.maxCount)
        guard count > 0, let list = format.pointee.chapters else { return [] }
        let nothing = tonearm_av_nopts_value()
        var chapters: [Chapter] = []
        for index in 0..<count {
            guard let chapter = list[index] else { continue }
            let base = chapter.pointee.time_base
            guard base.num > 0, base.den > 0 else { continue }
            let seconds = av_q2d(base)
            let start = Double(chapter.pointee.start) * seconds
            let end = chapter.pointee.end == nothing ? nil : Double(chapter.pointee.end) * seconds
            guard start.isFinite, start > -1 else { continue }
            var title: String?
            if let entry = av_dict_get(chapter.pointee.metadata, "title", nil, 0), let value = entry.pointee.value {
                title = String(decoding: UnsafeRawBufferPointer(start: value, count: strnlen(value, 1024)), as: UTF8.self)
            }
            chapters.append(Chapter(start: max(0, start), end: end, title: title))
        }
        return ChapterList(trackID: "", origin: .embedded, chapters: chapters).chapters
    }
}
