import Foundation
import PlayerCore

/// The Podcasting 2.0 JSON transcript format: `{"version": "1.0.0", "segments": [{"speaker":
/// "Alice", "startTime": 0.5, "endTime": 1.2, "body": "Hello"}]}`.
///
/// Many files give one segment per word (what speech recognisers emit). A line of one word is no
/// line to read, so consecutive segments of the same speaker are joined into a cue until a
/// sentence ends, a pause of `pauseGap` or more, or the cue reaches `lineLength` characters.
/// Every field is leniently typed (a number written as a string is read), and an odd segment is
/// dropped rather than failing the document.
enum TranscriptJSONParser {
    static let pauseGap = 1.0
    static let lineLength = 120

    static func parse(_ data: Data) throws(PlaybackError) -> [TranscriptCue] {
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch {
            throw PlaybackError(.malformedData, underlying: "transcript is not the JSON transcript format")
        }
        var cues: [TranscriptCue] = []
        var pending: (start: Double, end: Double, text: String, speaker: String?)?
        func flush() {
            if let line = pending, let cue = TranscriptCue(start: line.start, end: line.end, text: line.text, speaker: line.speaker) {
                cues.append(cue)
            }
            pending = nil
        }
        for segment in document.segments {
            guard cues.count < Transcript.maxCues else { break }
            guard let start = segment.startTime?.value, start.isFinite, start >= 0, let body = segment.body else { continue }
            let text = body.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { continue }
            let end = segment.endTime?.value.flatMap { $0.isFinite && $0 >= start ? $0 : nil } ?? start
            if var line = pending, line.speaker == segment.speaker, start - line.end < pauseGap, line.text.count + text.count < lineLength,
                !Self.endsSentence(line.text)
            {
                line.text += " " + text
                line.end = max(line.end, end)
                pending = line
            } else {
                flush()
                pending = (start, end, text, segment.speaker)
            }
        }
        flush()
        return cues
    }

    private static func endsSentence(_ text: String) -> Bool {
        guard let last = text.last else { return false }
        return ".?!…。？！".contains(last)
    }

    private struct Document: Decodable {
        let segments: [Segment]
    }

    private struct Segment: Decodable {
        let startTime: LenientNumber?
        let endTime: LenientNumber?
        let body: String?
        let speaker: String?

        enum CodingKeys: String, CodingKey { case startTime, endTime, body, speaker }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            startTime = try? container.decodeIfPresent(LenientNumber.self, forKey: .startTime)
            endTime = try? container.decodeIfPresent(LenientNumber.self, forKey: .endTime)
            body = try? container.decodeIfPresent(String.self, forKey: .body)
            speaker = (try? container.decodeIfPresent(String.self, forKey: .speaker)) ?? nil
        }
    }
}
