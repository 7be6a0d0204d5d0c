import Foundation
import PlayerCore
import Testing

@testable import Presentation

/// What Now Playing keeps of the transcript: opened with `t` following the voice, a line chosen
/// with the arrows from the line spoken, Enter taking its start once, a new item closing it.
@Suite("Transcript on Now Playing")
struct TranscriptModelTests {
    static let transcript = Transcript(cues: (0..<5).map { TranscriptCue(start: Double($0) * 10, end: Double($0) * 10 + 8, text: "Line \($0)")! })

    @Test func openChooseAndTakeALine() {
        var model = NowPlayingModel()
        model.toggleTranscript()
        #expect(!model.showsTranscript, "nothing to open without a transcript")
        model.apply(.notice(.transcript(Self.transcript), audioTime: 0))
        model.apply(.notice(.cue(TranscriptCuePosition(index: 2, cue: Self.transcript.cues[2])), audioTime: 20))
        model.toggleTranscript()
        #expect(model.showsTranscript && model.transcriptSelection == nil)
        #expect(model.transcriptView(language: .english)?.focusIndex == 2)
        model.moveTranscriptSelection(by: -1)
        #expect(model.transcriptSelection == 1, "from the line spoken")
        model.moveTranscriptSelection(by: -5)
        #expect(model.transcriptSelection == 0)
        #expect(model.transcriptView(language: .english)?.rows.map(\.isSelected) == [true, false, false, false, false])
        #expect(model.takeTranscriptSelection() == 0)
        #expect(model.takeTranscriptSelection() == nil, "taken once; the pane follows the voice again")
        model.apply(.notice(.transcript(nil), audioTime: 30))
        #expect(!model.showsTranscript && model.transcriptView(language: .english) == nil)
    }

    @Test func anUntimedTranscriptIsReadNotSeekedIn() {
        var model = NowPlayingModel()
        model.apply(.notice(.transcript(Transcript(cues: Self.transcript.cues, timed: false)), audioTime: 0))
        model.toggleTranscript()
        model.moveTranscriptSelection(by: 1)
        #expect(model.transcriptSelection == 0)
        #expect(model.takeTranscriptSelection() == nil)
        #expect(model.transcriptView(language: .english)?.rows.first?.start == nil)
    }
}
