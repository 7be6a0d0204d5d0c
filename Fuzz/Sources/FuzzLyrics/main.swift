import Foundation
import FuzzSupport
import PlayerCore

// Synced lyrics: `LyricsParser.parse` of an `.lrc` file's bytes, or `LyricsParser.transcript(fromTagText:)`
// of a lyrics tag's text (LRC when it has stamps, else plain). Input: one byte picks which (even:
// a file, odd: a tag), then the bytes.
//
// Contract: lyrics (marked as such) or `.malformedData` / `.documentTooLarge` for a file; lyrics
// or nothing for a tag. At most `Transcript.maxCues` cues with finite starts of 0 or more, ends not
// before their starts, clean one-line texts; timed cues in order, and the line current at a cue's
// start started there; untimed lyrics never current.
@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzLyrics(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    guard let mode = bytes.first else { return 0 }
    let body = Data(bytes.dropFirst())
    let lyrics: Transcript?
    if mode % 2 == 0 {
        do {
            lyrics = try LyricsParser.parse(body)
        } catch {
            fuzzCheck(error, isOneOf: [.malformedData, .documentTooLarge])
            return 0
        }
    } else {
        lyrics = LyricsParser.transcript(fromTagText: String(decoding: body, as: UTF8.self))
    }
    guard let lyrics else { return 0 }
    fuzzCheck(lyrics.lyrics != nil, "lyrics not marked as lyrics")
    fuzzCheck(!lyrics.isEmpty && lyrics.cues.count <= Transcript.maxCues, "\(lyrics.cues.count) cues")
    for cue in lyrics.cues {
        fuzzCheck(cue.start.isFinite && cue.start >= 0 && cue.end.isFinite && cue.end >= cue.start, "cue \(cue.start)-\(cue.end)")
        fuzzCheckClean(cue.text)
    }
    if lyrics.timed {
        fuzzCheck(zip(lyrics.cues, lyrics.cues.dropFirst()).allSatisfy { $0.start <= $1.start }, "cues out of order")
        for cue in lyrics.cues.prefix(200) {
            fuzzCheck(lyrics.current(at: cue.start)?.cue.start == cue.start, "the line current at \(cue.start) started elsewhere")
        }
    } else {
        fuzzCheck(lyrics.current(at: 0) == nil, "untimed lyrics followed")
    }
    return 0
}

runLibFuzzer(fuzzLyrics)
