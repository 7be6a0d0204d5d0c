import Foundation
import PlayerCore
import Presentation
import PresentationFixtures
import Testing

@testable import TerminalUI

/// The transcript pane on Now Playing: each line with its time and speaker, wrapped to the box,
/// the line spoken marked and in view however long the transcript, the chosen line shown; a line
/// longer than the box wraps.
@Suite("Transcript pane")
struct TranscriptPaneTests {
    static let transcript = Transcript(cues: (0..<200).map { (n: Int) -> TranscriptCue in
        let start = Double(n) * 5
        let speaker: String = n.isMultiple(of: 2) ? "Alice" : "Bob"
        return TranscriptCue(start: start, end: start + 4, text: "Line number \(n) of the talk.", speaker: speaker)!
    })

    static func screen(current: Int?, selection: Int? = nil, language: Language = .english) -> String {
        let track = Track(id: "t", url: URL(fileURLWithPath: "/m/talk.mp3"), kind: .file, title: "Talk", duration: 1_000)
        let view = NowPlayingViewState(state: .playing(track: track), context: Samples.context(language))
        var screen = NowPlayingScreen(view: view, language: language)
        screen.transcript = TranscriptViewState(
            transcript: transcript, current: current.map { TranscriptCuePosition(index: $0, cue: transcript.cues[$0]) }, selection: selection,
            language: language)
        return screen.render(width: 80, height: 24).text
    }

    @Test func theLineSpokenIsMarkedAndInViewWithItsTimeAndSpeaker() {
        let text = Self.screen(current: 150)
        #expect(text.contains("Transcript"))
        #expect(text.contains("▶ 12:30  Alice: Line number 150 of the talk."), "\(text)")
        #expect(text.contains("12:35  Bob: Line number 151"))
        #expect(!text.contains("Line number 3 of"), "scrolled to the line spoken")
        #expect(Self.screen(current: 150, language: .russian).contains("Расшифровка"))
    }

    @Test func aLongLineWrapsInTheBox() {
        let long = Transcript(cues: [TranscriptCue(start: 0, end: 9, text: (0..<40).map { "word\($0)" }.joined(separator: " "))!])
        let track = Track(id: "t", url: URL(fileURLWithPath: "/m/talk.mp3"), kind: .file, title: "Talk", duration: 10)
        var screen = NowPlayingScreen(view: NowPlayingViewState(state: .playing(track: track), context: Samples.context(.english)), language: .english)
        screen.transcript = TranscriptViewState(transcript: long, current: nil, selection: nil, language: .english)
        let text = screen.render(width: 80, height: 24).text
        #expect(text.contains("word0 word1") && text.contains("word39"), "\(text)")
    }

    @Test func theChosenLineIsKeptInViewInsteadOfTheVoice() {
        let text = Self.screen(current: 150, selection: 10)
        #expect(text.contains("0:50  Alice: Line number 10 of the talk."))
        #expect(!text.contains("Line number 150 of"))
    }
}
