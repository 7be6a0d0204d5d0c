import Foundation
import FuzzSupport
import Media
import PlayerCore

// A song's tags and cover (`TagReader`, `CoverArt`): FFmpeg's demuxers and tag readers (ID3v1/v2,
// Vorbis comments, APEv2, MP4 atoms, attached pictures) and Tonearm's mapping of what they give.
// Input: one byte choosing the scratch file's extension (FFmpeg weighs it when the content is
// ambiguous), then the file's bytes, written to one scratch file of this process (the reader
// opens files, as the library hands it the listener's).
//
// Contract: tags, or a `PlaybackError` of a documented code; every value non-empty, one clean line
// within `MediaLimits.maxTagValueBytes`, at most `MediaLimits.maxValuesPerTag` a tag; audio
// properties finite and not negative; a picture within `MediaLimits.maxEmbeddedPictureBytes`,
// present exactly when the tags say so.
let extensions = ["mp3", "flac", "ogg", "opus", "m4a", "wav", "ape", "bin"]
let scratchBase = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-fuzz-tags-\(getpid())").path
atexit {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-fuzz-tags-\(getpid())").path
    for ext in ["mp3", "flac", "ogg", "opus", "m4a", "wav", "ape", "bin"] { unlink(base + "." + ext) }
}

@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzTags(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let (header, body) = fuzzSplit(fuzzBytes(data, size), header: 1)
    let scratch = URL(fileURLWithPath: scratchBase + "." + extensions[Int(header[0] & 0x7)])
    guard FileManager.default.createFile(atPath: scratch.path, contents: Data(body)) else {
        fuzzCheck(false, "could not write the scratch file")
        return 0
    }
    let codes: Set<PlaybackError.Code> = [.unsupportedFormat, .fileNotFound, .unknown]
    var tags: SongTags?
    do {
        tags = try TagReader.read(scratch)
    } catch {
        fuzzCheck(error, isOneOf: codes)
    }
    if let tags {
        fuzzCheck(tags.values.count <= SongTag.allCases.count, "\(tags.values.count) tags")
        for (tag, values) in tags.values {
            fuzzCheck(!values.isEmpty && values.count <= MediaLimits.maxValuesPerTag, "\(tag): \(values.count) values")
            for value in values {
                fuzzCheck(!value.isEmpty && value.utf8.count <= MediaLimits.maxTagValueBytes, "\(tag): \(value.utf8.count) bytes")
                fuzzCheck(!value.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(tag) has a control character")
            }
        }
        let audio = tags.audio
        fuzzCheck(audio.duration.map { $0.isFinite && $0 > 0 } ?? true, "duration \(String(describing: audio.duration))")
        for number in [audio.sampleRate, audio.bitsPerSample, audio.channels, audio.bitrate] {
            fuzzCheck(number.map { $0 >= 0 } ?? true, "a negative audio property in \(audio)")
        }
    }
    // MPD's `readcomments`: every pair one line a client can read back.
    do {
        let pairs = try FileComments.read(scratch)
        fuzzCheck(pairs.count <= 2 * MediaLimits.maxTags, "\(pairs.count) pairs")
        for pair in pairs {
            fuzzCheck(!pair.key.isEmpty && !pair.key.contains(":"), "key \(pair.key.debugDescription)")
            fuzzCheck(!(pair.key + pair.value).contains(where: \.isNewline), "a line break in \(pair.key)")
            fuzzCheck(pair.value.utf8.count <= MediaLimits.maxTagValueBytes, "\(pair.key): \(pair.value.utf8.count) bytes")
        }
    } catch {
        fuzzCheck(error, isOneOf: codes)
    }
    do {
        let picture = try CoverArt.embeddedPicture(in: scratch)
        if let picture {
            fuzzCheck(!picture.data.isEmpty && picture.data.count <= MediaLimits.maxEmbeddedPictureBytes, "picture of \(picture.data.count) bytes")
            fuzzCheck(picture.mimeType.contains("/"), "MIME type \(picture.mimeType)")
        }
        if let tags { fuzzCheck(tags.hasEmbeddedPicture == (picture != nil), "hasEmbeddedPicture \(tags.hasEmbeddedPicture), picture \(picture != nil)") }
    } catch {
        fuzzCheck(error, isOneOf: codes)
    }
    return 0
}

runLibFuzzer(fuzzTags)
