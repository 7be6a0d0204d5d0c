import Foundation
import FuzzSupport
import PlayerCore
import Services

// The transcript readers (WebVTT and SRT, the JSON format, HTML). Input: one byte that picks the
// format (its value modulo 4: vtt, srt, json, html), then the document.
//
// Contract: a transcript or `.malformedData`, `.documentTooLarge`; at most `maxCues` cues, each with
// a finite start at least 0, an end not before it, clean one-line text of at most `maxCueLength`
// characters and a clean speaker; a timed transcript's cues in order of their start, and the cue
// `index(at:)` gives for a position has started and not ended there; the transcript reads back as
// itself from its JSON (how the library keeps it).
@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzTranscript(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let (header, body) = fuzzSplit(fuzzBytes(data, size), header: 1)
    let format = TranscriptFormat.allCases[Int(header[0]) % TranscriptFormat.allCases.count]
    do {
        let transcript = try TranscriptDocument.parse(Data(body), format: format)
        fuzzCheck(!transcript.isEmpty && transcript.cues.count <= Transcript.maxCues, "\(transcript.cues.count) cues")
        fuzzCheck(transcript.timed == format.isTimed, "timed \(transcript.timed) for \(format)")
        for cue in transcript.cues {
            fuzzCheck(cue.start.isFinite && cue.start >= 0 && cue.end >= cue.start, "cue from \(cue.start) to \(cue.end)")
            fuzzCheckClean(cue.text, maxLength: Transcript.maxCueLength)
            fuzzCheck(!cue.text.isEmpty, "an empty cue")
            fuzzCheckClean(cue.speaker)
        }
        if transcript.timed {
            fuzzCheck(zip(transcript.cues, transcript.cues.dropFirst()).allSatisfy { $0.start <= $1.start }, "cues out of order")
            for cue in transcript.cues.prefix(50) {
                for position in [cue.start, (cue.start + cue.end) / 2] {
                    guard let index = transcript.index(at: position) else { continue }
                    let found = transcript.cues[index]
                    fuzzCheck(found.start <= position && (found.end > position || found.start == position), "cue \(index) not spoken at \(position)")
                }
            }
        }
        let kept = try JSONEncoder().encode(transcript)
        fuzzCheck((try? JSONDecoder().decode(Transcript.self, from: kept)) == transcript, "the JSON round trip changed the transcript")
    } catch let error as PlaybackError {
        fuzzCheck(error, isOneOf: [.malformedData, .documentTooLarge])
    } catch {
        fuzzCheck(false, "encoding failed: \(error)")
    }
    return 0
}

runLibFuzzer(fuzzTranscript)
