import Foundation
import FuzzSupport
import Media
import PlayerCore

// A file's own subtitle track (`EmbeddedSubtitles`): FFmpeg's demuxers and text subtitle decoders,
// and the ASS event reader over what they give. Input: the file's bytes, written to one scratch file
// of this process (the reader opens files, as the player hands it the listener's); the same bytes
// also go to the ASS event reader as text.
//
// Contract: no transcript, or one of at most `maxCues` cues, each with a finite start at least 0,
// an end not before it, non-empty clean one-line text of at most `maxCueLength` characters and a
// clean speaker; the ASS reader never makes text longer than what it was given.
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-fuzz-subtitles-\(getpid()).mkv")
atexit { unlink(FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-fuzz-subtitles-\(getpid()).mkv").path) }

@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzSubtitles(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    let text = String(decoding: bytes, as: UTF8.self)
    if let event = EmbeddedSubtitles.assEvent(text) {
        fuzzCheck(event.text.count <= text.count, "ASS text grew from \(text.count) to \(event.text.count)")
    }
    fuzzCheck(EmbeddedSubtitles.plainText(text).count <= text.count, "plain text longer than the ASS text")

    guard FileManager.default.createFile(atPath: scratch.path, contents: Data(bytes)) else {
        fuzzCheck(false, "could not write the scratch file")
        return 0
    }
    guard let transcript = EmbeddedSubtitles.transcript(of: scratch) else { return 0 }
    fuzzCheck(!transcript.isEmpty && transcript.cues.count <= Transcript.maxCues, "\(transcript.cues.count) cues")
    for cue in transcript.cues {
        fuzzCheck(cue.start.isFinite && cue.start >= 0 && cue.end >= cue.start, "cue from \(cue.start) to \(cue.end)")
        fuzzCheck(!cue.text.isEmpty, "an empty cue")
        fuzzCheckClean(cue.text, maxLength: Transcript.maxCueLength)
        fuzzCheckClean(cue.speaker)
    }
    return 0
}

runLibFuzzer(fuzzSubtitles)
